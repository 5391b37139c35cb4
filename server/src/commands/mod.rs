//! One module per `parlor` subcommand.

pub mod arena;
pub mod bench;
pub mod bot;
pub mod heartless_move;
pub mod loadtest;
pub mod replay;
pub mod serve;
pub mod uva181;
