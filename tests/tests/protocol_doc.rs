//! docs/PROTOCOL.md's error tables name every code the server can send: each constant of
//! `codes` (read from `shared/src/protocol.rs`), each `ProtocolError` code and each rule code
//! (read from the `code()` functions that make them).

use std::path::Path;

/// A file of the repository, as text.
fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The strings of `pub const NAME: &str = "...";` lines inside `pub mod codes { ... }`.
fn code_constants(source: &str) -> Vec<String> {
    let start = source.find("pub mod codes {").expect("the codes module");
    let end = start + source[start..].find("\n}").expect("its end");
    source[start..end]
        .lines()
        .filter(|line| line.trim_start().starts_with("pub const"))
        .filter_map(|line| line.split('"').nth(1).map(str::to_string))
        .collect()
}

/// The string literals a `fn code(&self)` returns with `=> "..."` arms.
fn code_arms(source: &str) -> Vec<String> {
    let start = source.find("fn code(&self)").expect("a code function");
    let end = start + source[start..].find("\n    }\n").expect("its end");
    source[start..end]
        .lines()
        .filter(|line| line.contains("=> \""))
        .filter_map(|line| line.split('"').nth(1).map(str::to_string))
        .collect()
}

#[test]
fn every_error_code_is_in_the_protocol_document() {
    let protocol = read("shared/src/protocol.rs");
    let mut codes = code_constants(&protocol);
    assert!(codes.len() >= 20, "the codes module was read: {codes:?}");
    assert!(codes.iter().any(|c| c == "stale_move") && codes.iter().any(|c| c == "unknown_prompt"));
    let framing = code_arms(&protocol);
    assert!(framing.iter().any(|c| c == "malformed_json"), "{framing:?}");
    codes.extend(framing);
    let rules = code_arms(&read("shared/src/rules/error.rs"));
    assert!(rules.iter().any(|c| c == "must_follow_suit"), "{rules:?}");
    codes.extend(rules);
    codes.push("unauthorized".into());
    let doc = read("docs/PROTOCOL.md");
    let missing: Vec<&String> = codes
        .iter()
        .filter(|code| !doc.contains(&format!("| `{code}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "codes with no row of their own in PROTOCOL.md's error tables: {missing:?}"
    );
}
