//! The browser client, embedded in the binary at compile time so `parlor serve` needs no files
//! beside it. Each file is served with its type, a weak `ETag` from its bytes (`304` on
//! `If-None-Match`) and `Cache-Control: no-cache`, so a browser revalidates and a new build shows
//! at once; compression and security headers are layers in [`super::app`]. The page uses relative
//! paths and `<base href="./">`, so Parlor works under any sub-path behind a reverse proxy (at
//! `/t/{id}` the base becomes `../`). It serves files only; it knows nothing of tables.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use include_dir::{Dir, include_dir};

use super::AppError;

/// The `web/` directory as it was when the server was built.
static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../web");

/// Shown at `/` when the binary was built without a web client.
const FALLBACK_INDEX: &str = "<!doctype html><meta charset=utf-8><title>Parlor</title>\
<h1>Parlor</h1><p>This server was built without its web client. The lobby API is at \
<a href=api/tables>api/tables</a> and the game protocol at <code>ws</code>.</p>";

/// The page's base element as written, and as served one level down at `/t/{id}`.
const BASE: &str = r#"<base href="./">"#;
const TABLE_BASE: &str = r#"<base href="../">"#;

/// The page at `/` and at `/t/{id}`.
static INDEX: LazyLock<Option<(String, String)>> = LazyLock::new(|| {
    let page = WEB.get_file("index.html")?.contents_utf8()?;
    Some((page.to_string(), page.replacen(BASE, TABLE_BASE, 1)))
});

/// `/`: the client's page.
pub async fn index(headers: HeaderMap) -> Response {
    match &*INDEX {
        Some((page, _)) => asset(&headers, page.as_bytes(), "text/html; charset=utf-8"),
        None => Html(FALLBACK_INDEX).into_response(),
    }
}

/// `/t/{id}` (invite links): the client's page, its base one level up.
pub async fn table_page(headers: HeaderMap) -> Response {
    match &*INDEX {
        Some((_, page)) => asset(&headers, page.as_bytes(), "text/html; charset=utf-8"),
        None => Html(FALLBACK_INDEX).into_response(),
    }
}

/// Any other path: a file of the client, or a JSON 404.
pub async fn file(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    match WEB.get_file(path) {
        Some(file) if !path.is_empty() => {
            let mime = mime_guess::from_path(path).first_or_octet_stream();
            let content_type = match mime.type_() {
                mime_guess::mime::TEXT | mime_guess::mime::JAVASCRIPT => {
                    format!("{mime}; charset=utf-8")
                }
                _ => mime.to_string(),
            };
            asset(&headers, file.contents(), &content_type)
        }
        _ => AppError::NotFound(uri.path().to_string()).into_response(),
    }
}

/// A file's bytes with its type and validator, or `304` when the browser has them already.
fn asset(request: &HeaderMap, body: &'static [u8], content_type: &str) -> Response {
    let etag = etag(body);
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == "*" || t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(content_type) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

/// A weak entity tag from the bytes (weak: a compressed copy carries the same one).
fn etag(body: &[u8]) -> String {
    let mut hasher = DefaultHasher::new();
    body.hash(&mut hasher);
    format!("W/\"{:016x}-{:x}\"", hasher.finish(), body.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_at_an_invite_link_has_its_base_one_level_up() {
        let (root, table) = INDEX.as_ref().expect("the web client is embedded");
        assert!(root.contains(BASE));
        assert!(table.contains(TABLE_BASE) && !table.contains(BASE));
    }

    #[test]
    fn a_matching_tag_is_not_modified() {
        let body: &'static [u8] = b"export const x = 1;\n";
        let first = asset(&HeaderMap::new(), body, "text/javascript");
        assert_eq!(first.status(), StatusCode::OK);
        let tag = first.headers()[header::ETAG].clone();
        let mut again = HeaderMap::new();
        again.insert(header::IF_NONE_MATCH, tag);
        assert_eq!(
            asset(&again, body, "text/javascript").status(),
            StatusCode::NOT_MODIFIED
        );
        let mut other = HeaderMap::new();
        other.insert(header::IF_NONE_MATCH, HeaderValue::from_static("W/\"0-0\""));
        assert_eq!(
            asset(&other, body, "text/javascript").status(),
            StatusCode::OK
        );
    }
}
