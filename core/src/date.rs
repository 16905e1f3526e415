//! Calendar dates as day numbers, for the growth projection and the page's chart of it. The
//! core never reads a clock: "today" is an input.

/// Days since 1970-01-01 of an ISO 8601 date or date-time (`2026-11-30`,
/// `2026-11-30T08:05:00Z`); `None` when the text does not start with a valid date.
pub fn parse_day(text: &str) -> Option<i64> {
    let date = text.trim().get(..10)?;
    let mut parts = date.split('-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next()?.parse().ok()?;
    let day: i64 = parts.next()?.parse().ok()?;
    if date.as_bytes()[4] != b'-'
        || !(1..=12).contains(&month)
        || !(1..=days_in_month(year, month)).contains(&day)
    {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

/// The ISO 8601 date of a day number.
pub fn format_day(days: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02}")
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

// Howard Hinnant's algorithms for the proleptic Gregorian calendar.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_dates() {
        for (text, days) in [
            ("1970-01-01", 0),
            ("2026-11-30", 20_787),
            ("2000-02-29", 11_016),
        ] {
            assert_eq!(parse_day(text), Some(days), "{text}");
            assert_eq!(format_day(days), text);
        }
        assert_eq!(parse_day("2026-11-30T08:05:00Z"), Some(20_787));
        assert_eq!(parse_day("2026-02-29"), None);
        assert_eq!(parse_day("2026-13-01"), None);
        assert_eq!(parse_day("yesterday"), None);
        assert_eq!(parse_day("2026-1-1"), None);
    }
}
