//! Parlor's server: everything that does I/O around the pure engine of `parlor-shared`.
//!
//! [`app`] builds the router (REST lobby, replays, stats, `/ws`, the web client) and [`serve`] runs
//! it; each table is an actor task ([`table`]) found through the [`lobby`].

pub mod cluster;
pub mod conn;
pub mod digest;
pub mod http;
pub mod ladder;
pub mod lobby;
pub mod ratings;
pub mod skeleton;
pub mod store;
pub mod table;
pub mod tally;
pub mod tools;
pub mod ws;

pub use http::{AppState, Config, app, serve};
