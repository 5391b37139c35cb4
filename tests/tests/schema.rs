//! `docs/protocol.schema.json` is generated from the Rust types; this fails when it is stale.
//! Run with `UPDATE_SCHEMA=1` to rewrite it.

use parlor_shared::protocol::json_schema;

#[test]
fn the_exported_schema_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.schema.json");
    let fresh = serde_json::to_string_pretty(&json_schema()).unwrap() + "\n";
    if std::env::var("UPDATE_SCHEMA").is_ok_and(|v| v == "1") {
        std::fs::write(path, &fresh).unwrap();
    }
    let stored = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        stored == fresh,
        "docs/protocol.schema.json is stale: run `UPDATE_SCHEMA=1 cargo test -p parlor-tests --test schema`"
    );
}
