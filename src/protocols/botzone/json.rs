//! Botzone's JSON protocol: the full input (`requests`, `responses`, optional `time_limit`;
//! unknown fields such as `data` and `globaldata` ignored), the one-move keep-running
//! request, and the one-line answer.

use super::history::{excerpt, Entry, History};
use super::Request;
use crate::rules::point::Point;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::BufRead;

/// Reads one JSON value (which may span lines) from `input` as the full first input.
pub fn read_full(input: &mut impl BufRead) -> Result<Request, String> {
    let mut deserializer = serde_json::Deserializer::from_reader(input);
    let value = Value::deserialize(&mut deserializer).map_err(|e| format!("bad JSON input: {e}"))?;
    full(&value)
}

/// Parses one keep-running line: `{"x":3,"y":4}` (or that object inside a string), or a
/// whole new full input.
pub fn parse_line(line: &[u8]) -> Result<Request, String> {
    let value: Value = serde_json::from_slice(line).map_err(|e| format!("bad JSON request: {e}"))?;
    if value.get("requests").is_some() {
        full(&value)
    } else {
        Ok(Request::Move(entry(&value)))
    }
}

/// The full input from its JSON: the fields the bot reads, the others ignored.
fn full(value: &Value) -> Result<Request, String> {
    let Value::Object(fields) = value else {
        return Err(format!("the input must be a JSON object, found {}", kind(value)));
    };
    let list = |name: &str| match fields.get(name) {
        Some(Value::Array(items)) => Ok(items.iter().map(entry).collect()),
        // Only `requests` is indispensable: a first turn may come without `responses`.
        None if name == "responses" => Ok(Vec::new()),
        None => Err(format!("the input has no {name}")),
        Some(other) => Err(format!("{name} must be a list, found {}", kind(other))),
    };
    let history = History { requests: list("requests")?, responses: list("responses")?, faults: Vec::new() };
    let time_limit = fields.get("time_limit").filter(|v| !v.is_null()).map(|v| match v.as_f64() {
        Some(limit) => Ok(limit),
        None => Err(format!("time_limit is not a number: {}", excerpt(&v.to_string(), 40))),
    });
    Ok(Request::Full { history, time_limit })
}

/// What kind of JSON value `value` is, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A move object `{"x":X,"y":Y}`, or a string holding one.
fn entry(value: &Value) -> Entry {
    match value {
        Value::Object(map) => Ok((coordinate(map, "x")?, coordinate(map, "y")?)),
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok((coordinate(&map, "x")?, coordinate(&map, "y")?)),
            _ => Err(format!("is a string but not a move object: \"{}\"", excerpt(text, 40))),
        },
        other => Err(format!("is {}, not a move object", kind(other))),
    }
}

fn coordinate(map: &Map<String, Value>, name: &str) -> Result<i64, String> {
    match map.get(name) {
        Some(Value::Number(n)) => match n.as_i64() {
            Some(v) => Ok(v),
            // An integer beyond i64: certainly off the board.
            None if n.is_u64() => Ok(i64::MAX),
            None => Err(format!("has a non-integer {name}: {n}")),
        },
        Some(other) => Err(format!("has a non-integer {name}: {}", kind(other))),
        None => Err(format!("has no {name}")),
    }
}

/// The answer line: `{"response":{"x":X,"y":Y},"debug":"..."}`.
pub fn answer(best: Point, debug: &str) -> String {
    #[derive(Serialize)]
    struct Xy {
        x: u8,
        y: u8,
    }
    #[derive(Serialize)]
    struct Answer<'a> {
        response: Xy,
        debug: &'a str,
    }
    let answer = Answer { response: Xy { x: best.x(), y: best.y() }, debug };
    serde_json::to_string(&answer).expect("plain data serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Request {
        read_full(&mut text.as_bytes()).unwrap()
    }

    #[test]
    fn reads_objects_strings_and_ignores_unknown_fields() {
        let request = parse(
            r#"{"requests":[{"x":-1,"y":-1},"{\"x\":2,\"y\":3}"],"responses":[{"x":4,"y":4,"z":0}],
               "data":"d","globaldata":{"a":1},"time_limit":1000,"memory_limit":256,"extra":[1]}"#,
        );
        let Request::Full { history, time_limit } = request else { panic!("a full input") };
        assert_eq!(history.requests, vec![Ok((-1, -1)), Ok((2, 3))]);
        assert_eq!(history.responses, vec![Ok((4, 4))]);
        assert_eq!(time_limit, Some(Ok(1000.0)));
    }

    #[test]
    fn bad_entries_are_localised_and_bad_shapes_rejected() {
        let Request::Full { history, time_limit } =
            parse(r#"{"requests":[{"x":-1,"y":-1},{"x":2.5,"y":3},5,{"x":1}],"time_limit":"soon"}"#)
        else {
            panic!("a full input")
        };
        assert!(history.requests[1].as_ref().unwrap_err().contains("non-integer x: 2.5"));
        assert_eq!(history.requests[2], Err("is a number, not a move object".to_string()));
        assert!(history.requests[3].as_ref().unwrap_err().contains("has no y"));
        assert!(history.responses.is_empty());
        assert!(time_limit.unwrap().is_err());

        for (bad, message) in [
            (r#"{"requests":5}"#, "requests must be a list, found a number"),
            (r#"{"requests":[],"responses":{}}"#, "responses must be a list, found an object"),
            (r#"[1,2]"#, "the input must be a JSON object, found a list"),
            (r#"{"responses":[]}"#, "the input has no requests"),
            (r#"{"requests":[{"x":-1"#, "bad JSON input: EOF while parsing an object at line 1 column 20"),
        ] {
            assert_eq!(read_full(&mut bad.as_bytes()).unwrap_err(), message);
        }
    }

    #[test]
    fn keep_running_lines_are_moves_or_full_inputs() {
        assert!(matches!(parse_line(br#"{"x":3,"y":4}"#), Ok(Request::Move(Ok((3, 4))))));
        assert!(matches!(parse_line(br#""{\"x\":3,\"y\":4}""#), Ok(Request::Move(Ok((3, 4))))));
        assert!(matches!(parse_line(br#"{"requests":[{"x":-1,"y":-1}]}"#), Ok(Request::Full { .. })));
        assert!(parse_line(b"3 4").is_err());
    }

    #[test]
    fn the_answer_is_one_line_of_integers() {
        let line = answer(Point::from_xy(4, 5).unwrap(), "a \"quoted\"\nline");
        assert!(line.starts_with(r#"{"response":{"x":4,"y":5},"debug":"#), "{line}");
        assert!(!line.contains('\n'));
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["response"]["x"], 4);
        assert_eq!(value["response"]["y"], 5);
        assert_eq!(value["debug"], "a \"quoted\"\nline");
    }
}
