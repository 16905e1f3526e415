//! Inferring the home path, the project path and the OS from a dropped snapshot.
