//! `zertz engine`: the engine protocol of docs/protocol.md on standard input and output.

use std::io::{BufRead, ErrorKind};
use std::sync::{Arc, Mutex};

use clap::Args;
use zertz_engine::protocol::{MAX_LINE, Session, Sink, Status};

/// Options of `zertz engine` (none: everything is set through the protocol).
#[derive(Args)]
pub struct EngineArgs {}

/// One line of input, kept up to `MAX_LINE + 1` bytes.
enum Line {
    /// The line (without its `\n`).
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`]: read to its end and dropped.
    TooLong,
    /// The input has ended.
    End,
}

/// Reads one line without ever holding more than `MAX_LINE + 1` bytes of it.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Line> {
    line.clear();
    // Bytes of the line so far (kept or not), and its last byte.
    let mut total = 0usize;
    let mut last = None;
    let end = |line: &mut Vec<u8>, total: usize, last: Option<u8>| {
        // A `\r` before the `\n` is not part of the line.
        let length = total - usize::from(last == Some(b'\r'));
        if length > MAX_LINE {
            Line::TooLong
        } else {
            line.truncate(length);
            Line::Text(std::mem::take(line))
        }
    };
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            // End of input: a last line without `\n` still counts.
            return Ok(if total == 0 {
                Line::End
            } else {
                end(line, total, last)
            });
        }
        let (chunk, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], true),
            None => (buffer, false),
        };
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total += chunk.len();
        if let Some(&b) = chunk.last() {
            last = Some(b);
        }
        let used = chunk.len() + usize::from(found);
        input.consume(used);
        if found {
            return Ok(end(line, total, last));
        }
    }
}

/// Runs `zertz engine` until `quit` or the end of the input.
pub fn run(_args: EngineArgs) -> anyhow::Result<()> {
    let out: Sink = Arc::new(Mutex::new(std::io::stdout()));
    let mut session = Session::new(out);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        let status = match read_line(&mut input, &mut line) {
            Ok(Line::Text(text)) => session.handle_bytes(&text),
            Ok(Line::TooLong) => {
                session.refuse_long_line();
                Status::Continue
            }
            Ok(Line::End) | Err(_) => Status::Quit,
        };
        if status == Status::Quit {
            break;
        }
    }
    session.finish();
    Ok(())
}
