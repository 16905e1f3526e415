//! Numbers with a fixed count of decimals, written with integer arithmetic.
//!
//! `format!("{x:.1}")` of an `f64` links the standard library's float formatting (Grisu with
//! its Dragon fallback and their power-of-ten tables, some 12 KB of wasm) into the page. The
//! page only ever writes figures to a fixed count of decimals, which needs none of that:
//! [`fixed`] reads the float's exact binary value and rounds it the way `{:.N}` does, so every
//! figure on the page stays as it was, digit for digit (the tests compare the two over many
//! values, rounding ties included).

/// `value` with `decimals` digits after the point, exactly as `format!("{value:.decimals$}")`
/// writes it: the float's exact value rounded half to even, `-` for any negative value
/// (`-0.0` included), `NaN`, `inf` and `-inf` as the standard library spells them.
///
/// `decimals` above 9 are written as 9 (the page writes at most 4).
pub fn fixed(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    let mut text = String::new();
    if value.is_sign_negative() {
        text.push('-');
    }
    if value.is_infinite() {
        text.push_str("inf");
        return text;
    }
    let decimals = decimals.min(9);
    // The value is exactly `mantissa * 2^exponent`.
    let bits = value.abs().to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    // Decimal digits of the value times 10^decimals, rounded half to even: most significant
    // first, as small numbers so that any float fits (f64::MAX has 309 digits).
    let mut digits: Vec<u8> = Vec::new();
    if exponent >= 0 {
        // A whole number: double the mantissa's digits `exponent` times, then append zeros.
        push_digits(&mut digits, u128::from(mantissa));
        for _ in 0..exponent {
            let mut carry = 0;
            for digit in digits.iter_mut().rev() {
                let doubled = *digit * 2 + carry;
                *digit = doubled % 10;
                carry = doubled / 10;
            }
            if carry > 0 {
                digits.insert(0, carry);
            }
        }
        digits.extend(std::iter::repeat_n(0, decimals));
    } else {
        // scaled < 2^53 * 10^9 < 2^83, so it fits; a shift of 84 or more leaves under a half.
        let scaled = u128::from(mantissa) * 10u128.pow(decimals as u32);
        let shift = exponent.unsigned_abs();
        let rounded = if shift > 83 {
            0
        } else {
            let whole = scaled >> shift;
            let rest = scaled - (whole << shift);
            let half = 1u128 << (shift - 1);
            whole + u128::from(rest > half || (rest == half && whole % 2 == 1))
        };
        push_digits(&mut digits, rounded);
    }
    // At least one digit before the point.
    while digits.len() <= decimals {
        digits.insert(0, 0);
    }
    let point = digits.len() - decimals;
    for (i, digit) in digits.iter().enumerate() {
        if i == point {
            text.push('.');
        }
        text.push(char::from(b'0' + digit));
    }
    text
}

/// Appends the decimal digits of `n` (none for zero).
fn push_digits(digits: &mut Vec<u8>, mut n: u128) {
    let start = digits.len();
    while n > 0 {
        digits.push((n % 10) as u8);
        n /= 10;
    }
    digits[start..].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compares [`fixed`] with the standard library's `{:.N}` for `value` at 0 to 5 decimals.
    fn same(value: f64) {
        for decimals in 0..=5 {
            assert_eq!(
                fixed(value, decimals),
                format!("{value:.decimals$}"),
                "{value:e} at {decimals} decimals"
            );
        }
    }

    #[test]
    fn writes_the_page_figures_as_before() {
        assert_eq!(fixed(3.4, 1), "3.4");
        assert_eq!(fixed(1.05, 1), "1.1");
        assert_eq!(fixed(0.15, 1), "0.1");
        assert_eq!(fixed(0.25, 1), "0.2");
        assert_eq!(fixed(0.375, 2), "0.38");
        assert_eq!(fixed(30.0, 0), "30");
        assert_eq!(fixed(-0.04, 1), "-0.0");
        assert_eq!(fixed(12.5, 4), "12.5000");
    }

    #[test]
    fn matches_the_standard_library_on_special_values() {
        for value in [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 3.0,
            5e-324,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e15,
            1e16,
            2f64.powi(53),
            2f64.powi(53) + 2.0,
            2f64.powi(64),
            u64::MAX as f64,
            1e300,
            9.999_999_999,
            0.999_95,
            99.95,
        ] {
            same(value);
        }
    }

    /// Every exact tie a float can hold at 0 to 5 decimals (k/2^j, which the standard
    /// library rounds to even), and the floats right beside each.
    #[test]
    fn matches_the_standard_library_on_ties() {
        for j in 0..=8 {
            for k in 0..2_000u32 {
                let tie = f64::from(k) / f64::from(1u32 << j);
                for value in [tie, tie.next_up(), tie.next_down(), -tie] {
                    same(value);
                }
            }
        }
    }

    /// The page's figures are ratios of counts (`bytes / 1000`, `tokens * 100 / window`):
    /// decimal ties like 1.05, which no float holds exactly, and their neighbours.
    #[test]
    fn matches_the_standard_library_on_ratios() {
        for n in 0..5_000u64 {
            for d in [1u64, 3, 7, 10, 100, 1_000, 200_000, 1_000_000] {
                same(n as f64 / d as f64);
                same(n as f64 * 100.0 / d as f64);
            }
            let value = n as f64 / 1000.0;
            same(value.next_up());
            same(value.next_down());
        }
    }

    /// Floats spread over the whole range, from a fixed generator (the same on every run).
    #[test]
    fn matches_the_standard_library_across_the_range() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..40_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Any float (a few thousand: the huge ones take a while to write out).
            if i % 20 == 0 {
                same(f64::from_bits(state));
            }
            // Values of everyday size: a random mantissa, an exponent from 2^0 to 2^15.
            let everyday =
                f64::from_bits((state & ((1 << 52) - 1)) | (1_023 + (state >> 60)) << 52);
            same(everyday);
            same(everyday / 1e3);
        }
    }
}
