//! Any bytes as a SAN move in an Ice Age Chess position (the first byte picks the position).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| glacier_fuzz::san_text(data));
