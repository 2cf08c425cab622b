//! Any bytes as a position text of one of the games (the first byte picks the game).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| glacier_fuzz::position_text(data));
