//! Parlor's server: everything that does I/O around the pure engine of `parlor-shared`.
//!
//! [`app`] builds the router (REST lobby, `/ws`, the embedded web client) and [`serve`] runs
//! it; each table is an actor task ([`table`]) found through the [`lobby`].

pub mod adapters;
pub mod app;
pub mod client;
pub mod commands;
pub mod conn;
pub mod error;
pub mod lobby;
pub mod stats;
pub mod store;
pub mod table;
pub mod web;
pub mod ws;

pub use app::{AppState, Config, app, serve};
