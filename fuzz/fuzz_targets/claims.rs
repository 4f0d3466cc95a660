#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| integrity_gate::fuzzing::run("claims", data));
