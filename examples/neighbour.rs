//! A noisy neighbour: streams over a buffer of MIB mebibytes (default 1024), again and again,
//! writing every cache line, until it is killed. Run beside a count on a machine whose cores
//! share their last-level cache, it keeps that cache full of its own lines, as another tenant
//! of a rented machine may: `scripts/measure/crowded.sh` times two builds so.
//!
//!     cargo run --release --example neighbour -- 1024

fn main() {
    let mib: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 1024,
        Some(Ok(m)) if m > 0 => m,
        Some(_) => {
            eprintln!("usage: neighbour [MIB] (a number of mebibytes from 1)");
            std::process::exit(2);
        }
    };
    let mut buffer = vec![1u8; mib << 20];
    loop {
        for line in buffer.chunks_mut(64) {
            line[0] = line[0].wrapping_add(1);
        }
        // Keeps the writes from being optimised away.
        std::hint::black_box(&buffer);
    }
}
