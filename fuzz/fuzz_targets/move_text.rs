//! Any bytes as a move text in a position of one of the games (the first byte picks the
//! game, the second the position).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| glacier_fuzz::move_text(data));
