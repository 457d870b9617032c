//! `nogo serve` over real HTTP: the page, a whole game through the API, one search at a time,
//! and malformed requests answered with an error status by a server that lives on.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running `nogo serve` on a free port, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
            .args(["serve", "--port", "0", "--seed", "1"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// Sends `request` (raw bytes) and reads the whole answer: its status and body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        // A server may answer and close before it reads all of a request it refuses: what it
        // answered is what counts.
        let _ = stream.write_all(request);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, body)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.raw(request.as_bytes())
    }

    fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, &body.to_string());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// The events of a search of `game`: each update's JSON.
    fn think(&self, game: &Value, seconds: f64) -> Vec<Value> {
        let (status, body) =
            self.request("POST", "/api/think", &json!({"game": game, "seconds": seconds}).to_string());
        assert_eq!(status, 200, "{body}");
        events(&body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The body of a chunked answer.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// The JSON of each `data:` line of a server-sent event stream.
fn events(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect()
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start(&["--time", "0.5"]);
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<script src="/app.js">"#) && page.contains(r#"<svg id="board""#));
    for (path, needle) in [("/app.js", "/api/think"), ("/style.css", "#board")] {
        let (status, text) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        assert!(text.contains(needle), "{path}");
    }
    let (status, settings) = server.request("GET", "/api/settings", "");
    assert_eq!(status, 200);
    let settings: Value = serde_json::from_str(&settings).unwrap();
    assert_eq!((settings["seconds"].as_f64(), settings["engine"].as_str()), (Some(0.5), Some("rave")));
}

#[test]
fn a_whole_game_is_played_through_the_api() {
    let server = Server::start(&[]);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let game = json!({ "moves": moves });
        let (status, board) = server.post_json("/api/board", &game);
        assert_eq!(status, 200);
        assert_eq!(board["moves"].as_u64(), Some(moves.len() as u64));
        if !board["over"].is_null() {
            let loser = board["to_move"].as_str().unwrap();
            assert_eq!(board["over"]["reason"].as_str().unwrap(), format!("{loser} has no legal move"));
            assert_ne!(board["over"]["winner"].as_str().unwrap(), loser);
            break;
        }
        let updates = server.think(&game, 0.05);
        let last = updates.last().unwrap();
        assert!(
            last["done"].as_bool().unwrap()
                && updates[..updates.len() - 1].iter().all(|u| u["done"] == false)
        );
        let best = last["best"].as_str().unwrap().to_string();
        let cell = updates_cell(&best);
        assert_eq!(board["points"][cell], "legal", "{best} after {moves:?}");
        moves.push(best);
    }
    assert!(moves.len() >= 30, "a game of {} moves", moves.len());
    // Its SGF goes out and comes back.
    let (status, sgf) = server.request(
        "POST",
        "/api/sgf/write",
        &json!({"game": {"moves": moves}, "black": "nogo", "white": "nogo"}).to_string(),
    );
    assert_eq!(status, 200);
    assert!(sgf.contains("RE["), "{sgf}");
    let (status, read) = server.request("POST", "/api/sgf/read", &sgf);
    assert_eq!(status, 200);
    let read: Value = serde_json::from_str(&read).unwrap();
    assert_eq!(read["game"]["moves"], json!(moves));
}

/// The row-major number of a GTP point, as the board view orders its points.
fn updates_cell(point: &str) -> usize {
    let x = "ABCDEFGHJ".find(point.as_bytes()[0] as char).unwrap();
    let row: usize = point[1..].parse().unwrap();
    (9 - row) * 9 + x
}

#[test]
fn one_search_at_a_time_and_stop_ends_an_analysis() {
    let server = Server::start(&[]);
    let body = json!({"game": {"moves": ["E5"]}}).to_string();
    let mut analysis = TcpStream::connect(&server.address).unwrap();
    write!(analysis, "POST /api/think HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}", body.len())
        .unwrap();
    let mut reader = BufReader::new(analysis);
    let mut line = String::new();
    while !line.starts_with("data:") {
        line.clear();
        reader.read_line(&mut line).unwrap();
    }
    let (status, refused) = server.post_json("/api/think", &json!({"game": {"moves": []}, "seconds": 1}));
    assert_eq!(status, 409);
    assert!(refused["error"].as_str().unwrap().contains("busy"));
    assert_eq!(server.request("POST", "/api/stop", "").0, 204);
    let mut rest = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 || line.starts_with("0\r") {
            break;
        }
        rest.push_str(&line);
    }
    let last = events(&rest).pop().expect("an update after the stop");
    assert_eq!(last["done"], true);
}

#[test]
fn malformed_requests_get_an_error_status_and_the_server_lives() {
    let server = Server::start(&[]);
    let over: Vec<String> = {
        // A finished game, for a search that cannot be.
        let mut position = nogo::rules::Position::new();
        let mut rng = fastrand::Rng::with_seed(5);
        let mut moves = Vec::new();
        while let Some(p) = position.legal_moves().choose(&mut rng) {
            position.play(p).unwrap();
            moves.push(p.to_string());
        }
        moves
    };
    let long = vec!["E5"; 82];
    let games = [
        json!({"moves": ["E5", "E5"]}),
        json!({"moves": ["Z1"]}),
        json!({"moves": ["I5"]}),
        json!({"moves": ["A10"]}),
        json!({"moves": ["A0"]}),
        json!({"moves": [""]}),
        json!({"moves": [5]}),
        json!({"moves": "E5"}),
        json!({"moves": long}),
        json!({"moves": ["A9", "B9", "J1", "A8"]}),
        json!({"moves": [], "unknown": true}),
        json!({"setup": {"black": ["E5"], "white": ["E5"], "to_move": "black"}}),
        json!({"setup": {"black": ["A9"], "white": ["B9", "A8"], "to_move": "black"}}),
        json!({"setup": {"black": [], "white": [], "to_move": "red"}}),
        json!({"setup": {"black": [], "to_move": "black"}}),
        json!({"setup": "E5"}),
        json!([]),
        json!(null),
        json!(3),
        json!("moves"),
    ];
    let mut requests: Vec<(String, String, String)> = Vec::new();
    for game in &games {
        requests.push(("POST".into(), "/api/board".into(), game.to_string()));
        requests.push((
            "POST".into(),
            "/api/think".into(),
            json!({"game": game, "seconds": 0.1}).to_string(),
        ));
        requests.push((
            "POST".into(),
            "/api/sgf/write".into(),
            json!({"game": game, "black": "a", "white": "b"}).to_string(),
        ));
    }
    let think = |extra: Value| ("POST".to_string(), "/api/think".to_string(), extra.to_string());
    for seconds in [json!(0), json!(-1), json!(1e9), json!("fast"), json!([1]), json!({"s": 1})] {
        requests.push(think(json!({"game": {"moves": []}, "seconds": seconds})));
    }
    requests.push(think(json!({"game": {"moves": over}, "seconds": 0.1})));
    requests.push(think(json!({"game": {"moves": over}})));
    requests.push(think(json!({"seconds": 0.1})));
    requests.push(think(json!({"game": {"moves": []}, "seconds": 0.1, "extra": 1})));
    for body in
        ["", "{", "{\"moves\": [", "not json", "\u{0}\u{1}", "{\"moves\": [\"E5\"]} trailing", "[1, 2"]
    {
        for path in ["/api/board", "/api/think", "/api/sgf/write"] {
            requests.push(("POST".into(), path.into(), body.into()));
        }
    }
    for sgf in [
        "",
        "not sgf",
        "(;GM[1]SZ[19];B[aa])",
        "(;GM[1]SZ[9];B[ee];B[dd])",
        "(;GM[1]SZ[9];B[])",
        "(;GM[1]SZ[9];B[tt])",
        "(;GM[1]SZ[9];B[zz])",
        "(;GM[2]SZ[9];B[ee])",
        "(;GM[1]SZ[9];B[ee];W[ee])",
        "(;GM[1]SZ[9]AB[aa]AW[ba][ab])",
        "(;GM[1]SZ[9];B[ee];AB[dd])",
        "(;GM[1]SZ[9]",
    ] {
        requests.push(("POST".into(), "/api/sgf/read".into(), sgf.into()));
    }
    for (method, path) in [
        ("GET", "/api/board"),
        ("GET", "/api/think"),
        ("PUT", "/api/stop"),
        ("DELETE", "/"),
        ("GET", "/nothing"),
        ("GET", "/api"),
        ("POST", "/app.js"),
        ("GET", "/../../etc/passwd"),
    ] {
        requests.push((method.into(), path.into(), String::new()));
    }
    let mut statuses = Vec::new();
    for (method, path, body) in &requests {
        let (status, text) = server.request(method, path, body);
        assert!((400..500).contains(&status), "{method} {path} {body:?}: {status} {text}");
        if path.starts_with("/api/") && ![404, 405].contains(&status) {
            let error: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            assert!(error["error"].is_string(), "{method} {path} {body:?}: {text}");
        }
        statuses.push(status);
    }
    // Bytes that are not HTTP, and a body past the limit.
    let huge = format!(
        "POST /api/board HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{}",
        1 << 20,
        "x".repeat(1 << 20)
    );
    let sgf_bytes = b"POST /api/sgf/read HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\n\xff\xfe\x00(";
    let raw: [&[u8]; 4] = [b"\x16\x03\x01garbage\r\n\r\n", b"GET\r\n\r\n", huge.as_bytes(), sgf_bytes];
    for request in raw {
        let (status, _) = server.raw(request);
        assert!((400..500).contains(&status), "{:?}: {status}", String::from_utf8_lossy(&request[..20]));
        statuses.push(status);
    }
    assert!(statuses.len() >= 100, "{} malformed requests", statuses.len());
    let (status, _) = server.request("GET", "/api/settings", "");
    assert_eq!(status, 200, "the server answers after {} malformed requests", statuses.len());
}
