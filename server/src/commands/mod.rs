//! One module per `parlor` subcommand.

pub mod bench;
pub mod uva181;
