//! `parlor uva181`: the UVa 181 batch solver over standard input and output.

use std::io::{Read, Write};

use parlor_shared::uva181;

/// Reads all of standard input, prints one score line per deck.
pub fn run() -> anyhow::Result<()> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let output = uva181::solve(&input)?;
    std::io::stdout().write_all(output.as_bytes())?;
    Ok(())
}
