//! A player's child process: started in its own process group so the judge can stop, continue
//! and kill the bot together with anything it started, as Botzone does; stdout read line by
//! line on a thread so every read can time out; the tail of stderr kept for error messages.
//!
//! Process groups and SIGSTOP are Unix's. Elsewhere the command runs through `cmd /C`, a
//! player is not stopped between its turns (so it could think on its opponent's time), and
//! only the process started is killed at the end.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest output line kept; the rest of a longer line is read and dropped.
const MAX_LINE: u64 = 1 << 20;
/// Bytes of stderr kept for messages.
const STDERR_TAIL: usize = 2048;
/// Last stderr lines quoted in a crash, at most.
const STDERR_LINES: usize = 5;
/// Bytes of those lines quoted, at most.
const STDERR_SHOWN: usize = 1024;
/// How long to wait for the exit status and the last stderr of a process that closed its
/// output.
const EXIT_PATIENCE: Duration = Duration::from_millis(500);

/// What a timed read found.
#[derive(Debug, PartialEq)]
pub enum ReadResult {
    /// An output line, without its line ending.
    Line(String),
    /// The process closed its output (it exited, or is about to).
    Closed,
    /// The deadline passed before a line came.
    TimedOut,
}

/// A running external player.
pub struct BotProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    /// The thread collecting stderr: done once every writer of the stream has gone.
    stderr_reader: JoinHandle<()>,
}

impl BotProcess {
    /// Starts `command` through `sh -c`, so users may write arguments, quotes, environment
    /// assignments and `cd dir &&` as in a shell. The shell leads the new process group, which
    /// every signal targets, so the bot is stopped and killed with it.
    pub fn spawn(command: &str) -> io::Result<BotProcess> {
        let mut child =
            shell(command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if line.len() as u64 == MAX_LINE && line.last() != Some(&b'\n') {
                            let _ = reader.skip_until(b'\n');
                        }
                        let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                tail.extend_from_slice(&buffer[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
        });
        Ok(BotProcess { child, stdin, lines, stderr_tail, stderr_reader })
    }

    /// Writes `text` and flushes. An error means the process has gone; the next read says so.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.stdin.write_all(text.as_bytes())?;
        self.stdin.flush()
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn read_line(&self, deadline: Instant) -> ReadResult {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => ReadResult::Line(line),
            Err(RecvTimeoutError::Disconnected) => ReadResult::Closed,
            Err(RecvTimeoutError::Timeout) => ReadResult::TimedOut,
        }
    }

    /// Stops the whole process group until [`BotProcess::resume`] (on Unix; elsewhere nothing).
    pub fn pause(&self) {
        #[cfg(unix)]
        self.signal(libc::SIGSTOP);
    }

    /// Continues a stopped process group.
    pub fn resume(&self) {
        #[cfg(unix)]
        self.signal(libc::SIGCONT);
    }

    /// The exit status, waiting up to `patience` for the process to end.
    pub fn exit_status(&mut self, patience: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + patience;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Whether the process is still running (stopped counts as running).
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Whether the process, which closed its output, exited with a failure (a status other
    /// than 0, or a signal); waits a little for the status.
    pub fn failed(&mut self) -> bool {
        self.exit_status(EXIT_PATIENCE).is_some_and(|status| !status.success())
    }

    /// A crash's account of the process, which closed its output: how it exited (waiting a
    /// little for the status), what it was `doing`, and the last lines of its stderr.
    pub fn crash_detail(&mut self, doing: &str) -> String {
        let mut detail = format!("{} {doing}", describe_exit(self.exit_status(EXIT_PATIENCE)));
        if let Some(tail) = self.stderr_tail() {
            detail.push_str(&format!("; its stderr ended with:\n{tail}"));
        }
        detail
    }

    /// The last non-empty lines the process wrote to stderr (at most `STDERR_LINES` of them
    /// and `STDERR_SHOWN` bytes), if any.
    fn stderr_tail(&self) -> Option<String> {
        // A process that has gone may have written its last words just before: they are read
        // once the stream closes, unless something it started still holds it open.
        let until = Instant::now() + EXIT_PATIENCE;
        while !self.stderr_reader.is_finished() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&tail);
        let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
        let last = lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n");
        let cut = last.len().saturating_sub(STDERR_SHOWN);
        let start = (cut..=last.len()).find(|&i| last.is_char_boundary(i)).unwrap_or(last.len());
        match &last[start..] {
            "" => None,
            shown if start > 0 => Some(format!("...{shown}")),
            shown => Some(shown.to_string()),
        }
    }

    #[cfg(unix)]
    fn signal(&self, signal: libc::c_int) {
        // The child leads its own group (`process_group(0)`), so its pid is the group id.
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-group, signal);
        }
    }
}

impl Drop for BotProcess {
    /// Kills the bot's whole group (Botzone kills bots at the end of a match) and reaps it.
    fn drop(&mut self) {
        #[cfg(unix)]
        self.signal(libc::SIGKILL);
        #[cfg(not(unix))]
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `command` run by the platform's shell, on Unix as the leader of a new process group.
#[cfg(unix)]
fn shell(command: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(command).process_group(0);
    shell
}

/// `command` run by the platform's shell.
#[cfg(not(unix))]
fn shell(command: &str) -> Command {
    let mut shell = Command::new("cmd");
    shell.arg("/C").arg(command);
    shell
}

/// How an exit reads in a verdict.
fn describe_exit(status: Option<ExitStatus>) -> String {
    match status {
        Some(s) if s.code().is_some() => format!("exited with status {}", s.code().unwrap_or_default()),
        #[cfg(unix)]
        Some(s) => {
            use std::os::unix::process::ExitStatusExt;
            format!("was killed by signal {}", s.signal().unwrap_or_default())
        }
        #[cfg(not(unix))]
        Some(_) => "was killed".to_string(),
        None => "closed its output".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_then_sees_the_end() {
        let mut bot = BotProcess::spawn("read a; echo got $a; echo 'x y' 'z'").unwrap();
        bot.write("hello\n").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(bot.read_line(deadline), ReadResult::Line("got hello".into()));
        assert_eq!(bot.read_line(deadline), ReadResult::Line("x y z".into()));
        assert_eq!(bot.read_line(deadline), ReadResult::Closed);
        assert_eq!(describe_exit(bot.exit_status(Duration::from_secs(10))), "exited with status 0");
        assert!(!bot.is_alive());
    }

    #[test]
    fn a_silent_process_times_out_and_a_stopped_one_resumes() {
        let mut bot = BotProcess::spawn("read a; echo $a").unwrap();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_millis(50)), ReadResult::TimedOut);
        bot.pause();
        assert!(bot.is_alive(), "a stopped process is alive");
        bot.write("late\n").unwrap();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_millis(200)), ReadResult::TimedOut);
        bot.resume();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_secs(10)), ReadResult::Line("late".into()));
    }

    #[test]
    fn a_crash_quotes_the_last_lines_of_stderr() {
        let script =
            "for i in 1 2 3 4 5 6; do echo line $i >&2; done; echo >&2; echo 'Error: boom' >&2; exit 3";
        let mut bot = BotProcess::spawn(script).unwrap();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_secs(10)), ReadResult::Closed);
        assert_eq!(
            bot.crash_detail("without answering"),
            "exited with status 3 without answering; its stderr ended with:\n\
             line 3\nline 4\nline 5\nline 6\nError: boom"
        );
        let mut silent = BotProcess::spawn("exit 0").unwrap();
        assert_eq!(silent.read_line(Instant::now() + Duration::from_secs(10)), ReadResult::Closed);
        assert_eq!(silent.crash_detail("after 'genmove b'"), "exited with status 0 after 'genmove b'");
    }

    #[test]
    fn a_long_stderr_is_cut_to_its_last_kilobyte() {
        // Two lines of 800 characters, the first cut; a multi-byte character at the cut is
        // not split.
        let mut bot = BotProcess::spawn(
            "printf 'é%.0s' $(seq 800) >&2; echo >&2; printf 'z%.0s' $(seq 800) >&2; exit 1",
        )
        .unwrap();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_secs(10)), ReadResult::Closed);
        let detail = bot.crash_detail("without answering");
        let tail = detail.split_once(":\n").unwrap().1;
        assert!(tail.starts_with("...é") && tail.ends_with(&"z".repeat(800)), "{tail}");
        assert!(tail.len() <= STDERR_SHOWN + "...".len(), "{}", tail.len());
    }
}
