//! The browser client, embedded in the binary at compile time so `parlor serve` needs no
//! files beside it.
//!
//! It serves files only; it knows nothing of tables.

use axum::http::{HeaderValue, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use include_dir::{Dir, include_dir};

use super::AppError;

/// The `web/` directory as it was when the server was built.
static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../web");

/// Shown at `/` when the binary was built without a web client.
const FALLBACK_INDEX: &str = "<!doctype html><meta charset=utf-8><title>Parlor</title>\
<h1>Parlor</h1><p>This server was built without its web client. The lobby API is at \
<a href=/api/tables>/api/tables</a> and the game protocol at <code>/ws</code>.</p>";

/// `/` and `/t/{id}` (invite links): the client's page.
pub async fn index() -> Response {
    match WEB.get_file("index.html") {
        Some(file) => with_type(file.contents(), "text/html; charset=utf-8"),
        None => Html(FALLBACK_INDEX).into_response(),
    }
}

/// Any other path: a file of the client, or a JSON 404.
pub async fn file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    match WEB.get_file(path) {
        Some(file) if !path.is_empty() => with_type(file.contents(), content_type(path)),
        _ => AppError::NotFound(uri.path().to_string()).into_response(),
    }
}

/// A file's bytes with its content type; browsers revalidate so a new build shows at once.
fn with_type(body: &'static [u8], content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The content type of a file name.
fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or_default();
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
