//! Parlor's server: everything that does I/O around the pure engine of `parlor-shared`.

pub mod adapters;
pub mod commands;
