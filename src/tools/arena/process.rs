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
use std::time::{Duration, Instant};

/// Longest output line kept; the rest of a longer line is read and dropped.
const MAX_LINE: u64 = 1 << 20;
/// Bytes of stderr kept for messages.
const STDERR_TAIL: usize = 2048;

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
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                tail.extend_from_slice(&buffer[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
        });
        Ok(BotProcess { child, stdin, lines, stderr_tail })
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

    /// The last non-empty line the process wrote to stderr, shortened, if any.
    pub fn last_stderr_line(&self) -> Option<String> {
        // Give the stderr thread a moment to collect what a dying process wrote last.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&tail);
        let line = text.lines().rev().find(|l| !l.trim().is_empty())?.trim();
        Some(line.chars().take(200).collect())
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
pub fn describe_exit(status: Option<ExitStatus>) -> String {
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
    fn keeps_the_last_stderr_line() {
        let bot = BotProcess::spawn("echo first >&2; echo 'Traceback: boom' >&2; exit 3").unwrap();
        assert_eq!(bot.read_line(Instant::now() + Duration::from_secs(10)), ReadResult::Closed);
        assert_eq!(bot.last_stderr_line().as_deref(), Some("Traceback: boom"));
    }
}
