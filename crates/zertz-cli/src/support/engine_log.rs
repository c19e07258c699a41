//! The log of an external engine's standard error during a match: one file per side, kept
//! beside the match's output, every line prefixed with the number of the engine process that
//! wrote it (a match starts one process per game, and several run at once with
//! `--concurrency`). Without it, what an engine said before it failed is lost.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

/// One side's standard-error log.
pub struct EngineLog {
    path: PathBuf,
    file: Mutex<File>,
    processes: AtomicUsize,
}

impl EngineLog {
    /// Creates (or empties) the log at `path`.
    pub fn create(path: &Path) -> Result<Arc<EngineLog>, String> {
        let file = File::create(path)
            .map_err(|e| format!("cannot write the engine log {}: {e}", path.display()))?;
        Ok(Arc::new(EngineLog {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            processes: AtomicUsize::new(0),
        }))
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copies `stderr` of the process started as `command` into the log on a thread of its
    /// own, until the process closes it; the receiver hears when it has.
    pub fn attach(
        self: &Arc<Self>,
        command: &str,
        stderr: impl Read + Send + 'static,
    ) -> Receiver<()> {
        let (done, finished) = channel();
        let n = self.processes.fetch_add(1, Ordering::Relaxed) + 1;
        self.write(&format!("[{n}] started: {command}"));
        let log = Arc::clone(self);
        std::thread::spawn(move || {
            // Bytes that are not UTF-8 are kept as replacement characters, not dropped.
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line);
                        log.write(&format!("[{n}] {}", text.trim_end_matches(['\r', '\n'])));
                    }
                }
            }
            let _ = done.send(());
        });
        finished
    }

    fn write(&self, line: &str) {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // A log that cannot be written must not stop the match.
        let _ = writeln!(file, "{line}");
        let _ = file.flush();
    }
}
