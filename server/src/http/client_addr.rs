//! Which address a request comes from: the TCP peer, or, only when the operator says a reverse
//! proxy in front is trusted (`--trust-proxy`), the address that proxy reports.
//!
//! It owns reading `X-Forwarded-For` and `Forwarded`; per-address limits use its answer. A
//! client can write either header itself, so the address taken is the one the proxy added
//! last (the rightmost), never one further left.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The TCP peer of a connection, put in each request's extensions by the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// The client's address: the proxy's word for it when `trust_proxy`, else the TCP peer's.
#[must_use]
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    if !trust_proxy {
        return peer;
    }
    forwarded_for(headers)
        .or_else(|| x_forwarded_for(headers))
        .unwrap_or(peer)
}

/// The last address of the last `X-Forwarded-For` header.
fn x_forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let value = last.to_str().ok()?;
    parse_addr(value.rsplit(',').next()?)
}

/// The `for=` of the last element of the last `Forwarded` header (RFC 7239).
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("forwarded").iter().next_back()?;
    let element = last.to_str().ok()?.rsplit(',').next()?;
    let value = element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim().eq_ignore_ascii_case("for").then_some(value)
    })?;
    parse_addr(value)
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `"[2001:db8::1]:80"`, `::1`.
fn parse_addr(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    text.strip_prefix('[')?.split(']').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_proxy_s_word_counts_only_when_it_is_trusted_and_only_its_own_entry() {
        let peer: IpAddr = "10.0.0.2".parse().unwrap();
        let spoofed = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.7")]);
        assert_eq!(client_ip(peer, &spoofed, false), peer);
        assert_eq!(
            client_ip(peer, &spoofed, true),
            "203.0.113.7".parse::<IpAddr>().unwrap()
        );
        let forwarded = headers(&[(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8::1]:4711\";proto=https",
        )]);
        assert_eq!(
            client_ip(peer, &forwarded, true),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
        let junk = headers(&[("x-forwarded-for", "unknown")]);
        assert_eq!(client_ip(peer, &junk, true), peer);
    }
}
