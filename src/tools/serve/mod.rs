//! `nogo serve`: a board in the browser. A local HTTP server (axum) serves one page, embedded
//! in the binary, and a small JSON API the page calls: the board and its legal points, a search
//! whose progress streams as server-sent events, and SGF in and out. The page keeps the game;
//! the server keeps only the engine, one search at a time (see [`thinker`]).

pub mod game;
pub mod thinker;

use crate::engines::{check_seconds, EngineArgs};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use game::{BoardView, GameJson, SgfGame};
use serde::Deserialize;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use thinker::{Goal, Thinker};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// `nogo serve` options.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// The port to listen on; 0 takes any free one (the address is printed on stderr).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: the default, 127.0.0.1, serves this machine only; 0.0.0.0
    /// serves every network the machine is on.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub listen: IpAddr,
    /// Open the page in the system's browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// The engine; --time is the page's first time a move, which the page can change.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The page and its files, embedded in the binary.
const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// The largest request body: a game or an SGF file is a few kilobytes.
const MAX_BODY_BYTES: usize = 256 * 1024;

/// An error answered as `{"error": "..."}` with its status.
struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// A JSON object of type `T`, or a 400 that says what is wrong with it.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let mut json = serde_json::Deserializer::from_slice(body);
    game::object(&mut json)
        .and_then(|value| json.end().map(|()| value))
        .map_err(|e| ApiError::bad(format!("the request is not the JSON object expected: {e}")))
}

/// The page's first time a move, in seconds, when `--time` does not set it.
const DEFAULT_SECONDS: f64 = 1.0;

/// The server's routes over `thinker`; `seconds` is the page's first time a move.
pub fn router(thinker: Arc<Thinker>, seconds: f64) -> Router {
    let settings = serde_json::json!({ "seconds": seconds, "engine": thinker.engine_name() });
    Router::new()
        .route("/", file("text/html; charset=utf-8", INDEX_HTML))
        .route("/app.js", file("text/javascript; charset=utf-8", APP_JS))
        .route("/style.css", file("text/css; charset=utf-8", STYLE_CSS))
        .route("/api/settings", get(|| async move { Json(settings) }))
        .route("/api/board", post(board))
        .route("/api/think", post(think))
        .route("/api/stop", post(stop))
        .route("/api/new-game", post(new_game))
        .route("/api/sgf/read", post(read_sgf))
        .route("/api/sgf/write", post(write_sgf))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page or API call".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(thinker)
}

/// A page file: `body` answered as `content_type`.
fn file(content_type: &'static str, body: &'static str) -> MethodRouter<Arc<Thinker>> {
    get(move || async move { ([(header::CONTENT_TYPE, content_type)], body) })
}

/// `POST /api/board` with a game: its position as the page draws it.
async fn board(body: Bytes) -> Result<Json<BoardView>, ApiError> {
    let game = parse::<GameJson>(&body)?.game().map_err(ApiError::bad)?;
    Ok(Json(BoardView::of(&game)))
}

/// What `POST /api/think` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThinkRequest {
    #[serde(deserialize_with = "game::object")]
    game: GameJson,
    /// Seconds for a move; none to analyse until stopped.
    #[serde(default)]
    seconds: Option<f64>,
}

/// `POST /api/think`: a search of the game's position, its updates streamed as server-sent
/// events (`data: {json}`, the last with `"done": true`). 409 while another search runs.
async fn think(State(thinker): State<Arc<Thinker>>, body: Bytes) -> Result<impl IntoResponse, ApiError> {
    let request = parse::<ThinkRequest>(&body)?;
    let game = request.game.game().map_err(ApiError::bad)?;
    if let Some(over) = game.result() {
        return Err(ApiError::bad(format!("the game is over: {}", over.reason)));
    }
    let goal = match request.seconds {
        None => Goal::Analyse,
        Some(seconds) => Goal::Move(Duration::from_secs_f64(check_seconds(seconds).map_err(ApiError::bad)?)),
    };
    let Some(updates) = thinker.start(game.position().clone(), goal) else {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "the engine is busy with another search: stop it or wait for it".into(),
        ));
    };
    let events = ReceiverStream::new(updates)
        .map(|update| Ok::<_, Infallible>(Event::default().json_data(update).unwrap_or_default()));
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// `POST /api/stop`: ends the search that runs, if any.
async fn stop(State(thinker): State<Arc<Thinker>>) -> StatusCode {
    thinker.stop();
    StatusCode::NO_CONTENT
}

/// `POST /api/new-game`: stops the search that runs; the next starts without the last tree.
async fn new_game(State(thinker): State<Arc<Thinker>>) -> StatusCode {
    match tokio::task::spawn_blocking(move || thinker.new_game()).await {
        Ok(()) => StatusCode::NO_CONTENT,
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// `POST /api/sgf/read` with an SGF text: the game and the players' names.
async fn read_sgf(body: Bytes) -> Result<Json<SgfGame>, ApiError> {
    let text = std::str::from_utf8(&body).map_err(|_| ApiError::bad("the SGF file is not UTF-8 text"))?;
    SgfGame::read(text).map(Json).map_err(ApiError::bad)
}

/// `POST /api/sgf/write` with a game and names: its SGF text.
async fn write_sgf(body: Bytes) -> Result<impl IntoResponse, ApiError> {
    let text = parse::<SgfGame>(&body)?.write().map_err(ApiError::bad)?;
    Ok(([(header::CONTENT_TYPE, "application/x-go-sgf")], text))
}

/// Runs the server until the process is stopped; the exit code.
pub fn run(args: ServeArgs) -> i32 {
    let args = ServeArgs { engine: args.engine.on_every_core(), ..args };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("nogo serve: cannot start: {e}");
            return 1;
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind((args.listen, args.port)).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("nogo serve: cannot listen on {}:{}: {e}", args.listen, args.port);
                return 1;
            }
        };
        let url = match listener.local_addr() {
            Ok(address) => format!("http://{address}/"),
            Err(e) => {
                eprintln!("nogo serve: {e}");
                return 1;
            }
        };
        let engine = &args.engine;
        eprintln!(
            "nogo serve: listening on {url} ({}, {} threads); Ctrl-C stops",
            engine.engine.name(),
            engine.params().threads
        );
        if args.open {
            open_browser(&url);
        }
        match axum::serve(
            listener,
            router(Arc::new(Thinker::new(engine)), engine.time.unwrap_or(DEFAULT_SECONDS)),
        )
        .await
        {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("nogo serve: {e}");
                1
            }
        }
    })
}

/// Opens `url` in the system's browser, or says how to.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(opener.0).args(&opener.1).spawn() {
        eprintln!("nogo serve: cannot open a browser ({}: {e}); open {url}", opener.0);
    }
}
