//! Who a client is, for every limit kept per address: the address of the connection, or, when
//! the connection comes from a proxy the operator names (`zertz serve --trusted-proxy`), the
//! address that proxy says it serves (`X-Forwarded-For`); an IPv6 address stands for its /64
//! network, the block one subscriber is usually given (so one machine cannot step through its
//! 2^64 addresses to escape a limit). Without a trusted proxy the header is ignored: anybody can
//! write it.

use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;

/// The key every per-address limit uses for the client at `peer` (the connection's address)
/// whose request carried `headers`.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let peer = canonical(peer);
    if !trusted.contains(&peer) {
        return network(peer);
    }
    network(forwarded_for(headers, trusted).unwrap_or(peer))
}

/// The key of the connection from `peer` itself (its /64 network for IPv6).
pub fn connection_key(peer: IpAddr) -> IpAddr {
    network(canonical(peer))
}

/// Whether connections from `peer` come through a trusted proxy (which holds many clients'
/// connections, so the cap on one address's connections is not its to keep).
pub fn is_trusted(peer: IpAddr, trusted: &[IpAddr]) -> bool {
    trusted.contains(&canonical(peer))
}

/// The client a chain of trusted proxies names: the right-most address of `X-Forwarded-For`
/// that is not itself a trusted proxy (each proxy appends the address it was reached from, so
/// what stands left of that was written by the client and proves nothing).
fn forwarded_for(headers: &HeaderMap, trusted: &[IpAddr]) -> Option<IpAddr> {
    let values: Vec<String> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    let entries: Vec<&str> = values.iter().flat_map(|v| v.split(',')).collect();
    for entry in entries.iter().rev() {
        let address = canonical(entry.trim().parse::<IpAddr>().ok()?);
        if !trusted.contains(&address) {
            return Some(address);
        }
    }
    None
}

/// IPv4 addresses written as IPv6 (`::ffff:a.b.c.d`) as the IPv4 address they are.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// An IPv6 address's /64 network (its last 64 bits zero); an IPv4 address itself.
fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !(u128::from(u64::MAX));
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_header_is_ignored_unless_the_connection_is_from_a_trusted_proxy() {
        let h = headers(&["203.0.113.9"]);
        assert_eq!(
            client_address(ip("198.51.100.1"), &h, &[]),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_address(ip("198.51.100.1"), &h, &[ip("10.0.0.1")]),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_address(ip("10.0.0.1"), &h, &[ip("10.0.0.1")]),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn what_the_client_wrote_before_the_proxys_entry_proves_nothing() {
        let trusted = [ip("10.0.0.1"), ip("10.0.0.2")];
        // The client sent "1.2.3.4"; the outer proxy appended the real address, the inner
        // one the outer proxy's.
        let h = headers(&["1.2.3.4, 203.0.113.9, 10.0.0.2"]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &h, &trusted),
            ip("203.0.113.9")
        );
        // The same, written as two headers.
        let h = headers(&["1.2.3.4", "203.0.113.9"]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &h, &trusted),
            ip("203.0.113.9")
        );
        // Nothing usable: the proxy itself.
        assert_eq!(
            client_address(ip("10.0.0.1"), &headers(&[]), &trusted),
            ip("10.0.0.1")
        );
        assert_eq!(
            client_address(ip("10.0.0.1"), &headers(&["not an address"]), &trusted),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn an_ipv6_client_is_its_64_network_and_a_mapped_ipv4_is_ipv4() {
        let none = headers(&[]);
        assert_eq!(
            client_address(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), &none, &[]),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            client_address(ip("2001:db8:1:2::1"), &none, &[]),
            client_address(ip("2001:db8:1:2:ffff::9"), &none, &[])
        );
        assert_ne!(
            client_address(ip("2001:db8:1:2::1"), &none, &[]),
            client_address(ip("2001:db8:1:3::1"), &none, &[])
        );
        assert_eq!(
            client_address(ip("::ffff:192.0.2.7"), &none, &[]),
            ip("192.0.2.7")
        );
        assert!(is_trusted(ip("::ffff:10.0.0.1"), &[ip("10.0.0.1")]));
    }
}
