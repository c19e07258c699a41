//! Every answer of the server carries the headers that keep a browser to the site's own
//! scripts and styles, out of other sites' frames, from guessing content types and from
//! sending an invitation link to another site.

use zertz_testkit::in_process::Server;
use zertz_testkit::site::temp_db;

#[tokio::test]
async fn pages_files_api_and_errors_carry_the_security_headers() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db);
    for (path, status) in [
        ("/", 200),
        ("/game/abc", 404),
        ("/static/js/lib/ui.js", 200),
        ("/api/health", 200),
        ("/api/games/nope", 404),
        ("/nowhere", 404),
    ] {
        let response = server
            .http
            .get(format!("http://{}{path}", server.addr))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{path}");
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_else(|| panic!("{path}: no {name} header"))
        };
        let csp = header("content-security-policy");
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("referrer-policy"), "same-origin", "{path}");
    }
}
