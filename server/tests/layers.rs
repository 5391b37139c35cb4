//! The server's modules depend on one another in one direction only:
//!
//! ```text
//! tools -> http -> ws -> cluster -> lobby -> table -> {conn, store}
//! ```
//!
//! This reads every source file of `server/src` and fails when a module names (`crate::...`)
//! a module above it, or when `store` or `conn` names any other module of the server, so an
//! import cycle cannot come back unnoticed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each top-level module and the modules of the server it may import.
const ALLOWED: &[(&str, &[&str])] = &[
    ("conn", &[]),
    ("store", &[]),
    ("ratings", &["store"]),
    ("table", &["conn", "store", "ratings"]),
    ("lobby", &["table", "conn", "store", "ratings"]),
    ("cluster", &["lobby", "table", "conn", "store", "ratings"]),
    (
        "ws",
        &["cluster", "lobby", "table", "conn", "store", "ratings"],
    ),
    (
        "http",
        &[
            "ws", "cluster", "lobby", "table", "conn", "store", "ratings",
        ],
    ),
    (
        "tools",
        &[
            "http", "ws", "cluster", "lobby", "table", "conn", "store", "ratings",
        ],
    ),
];

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules `source` names through `crate::`, including grouped imports such
/// as `crate::{conn::Conn, store}`.
fn crate_modules(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = source;
    while let Some(at) = rest.find("crate::") {
        // `parlor_crate::` or `my_crate::` are other paths.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.extend(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.extend(first_segment(&item));
        } else {
            found.extend(first_segment(rest));
        }
    }
    found
}

/// The first path segment of `path`, if it is a module name.
fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && name != "self").then_some(name)
}

#[test]
fn the_parser_finds_plain_and_grouped_imports() {
    let source = "use crate::conn::{Conn, bounded};\nuse crate::{store, table::{TableMsg, X}};\n\
                  let x = crate::lobby::Lobby::new(); // parlor_crate::http is not ours";
    let found: Vec<String> = crate_modules(source).into_iter().collect();
    assert_eq!(found, ["conn", "lobby", "store", "table"]);
}

#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: Vec<&str> = ALLOWED.iter().map(|(name, _)| *name).collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 20,
        "the sources were found in {}",
        src.display()
    );
    let mut broken = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|name| name.trim_end_matches(".rs"))
            .expect("a file name");
        let Some((_, allowed)) = ALLOWED.iter().find(|(name, _)| *name == top) else {
            // lib.rs and main.rs sit above everything.
            continue;
        };
        let source = std::fs::read_to_string(file).expect("a readable source file");
        for used in crate_modules(&source) {
            if used != top && modules.contains(&used.as_str()) && !allowed.contains(&&*used) {
                broken.push(format!("{} imports crate::{used}", relative.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the layering tools -> http -> ws -> lobby -> table -> {{conn, store}}:\n{}",
        broken.join("\n")
    );
}
