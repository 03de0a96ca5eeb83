//! Criterion benchmarks of fastmac and fastmac-gears, in `benches/`: UMAC
//! per tag length and NH backend (`umac`), Badger in the shape of its
//! paper's table 1 (`badger`), and the gears' cost figures (`gears`). Run
//! one with `cargo bench -p fastmac-bench --bench NAME`. The library is
//! empty: a package needs a target besides its benchmarks.
