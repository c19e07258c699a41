//! When a writer of batches begins one: under load, at most once per period ([`PACE`] for the
//! SQLite writer), so that the writes arriving meanwhile share one commit. The SQLite writer's
//! (a thread, which sleeps) and the PostgreSQL writers of moves' (`postgres::appends`, tasks,
//! which sleep on the runtime: [`Pace::due`]; their period is `postgres::appends::PACE`, longer,
//! as a statement costs PostgreSQL more).
//!
//! A commit costs the writer much the same for one write as for several: the log frames of the
//! pages the batch touched (the games' `updated_ms` indexes take their new entries on the same
//! page), the page cache's truncation, the wake-ups of the threads. With moves arriving one by
//! one, nearly every move had its own commit, and the writer was the largest share of the
//! server's CPU per move (docs/performance.md, "Measured, 26 November 2026: CPU per move"). So when a
//! write arrives within [`PACE`] of the previous batch's start, the writer waits out the rest of
//! it and takes every write that arrived meanwhile: each waits at most that much longer, and a
//! write that finds the writer idle for longer is not delayed at all. Three milliseconds rather
//! than one: at 9,000 games the server's CPU per move was some 10 % lower (the commits, their
//! file locks and the writer's wake-ups are a third as many), for 1 ms more at the median of
//! the answers (docs/performance.md, "Measured, 27 November 2026").
//!
//! A wait that gathered nothing only delayed its write. Under load that happens now and then
//! (no other write came in the rest of the pace); when it happens [`IDLE_WAITS`] times
//! in a row, the writes are more likely one client's, each waiting for the one before (a
//! bulk import), and the writer does not wait for the next [`SKIP`] batches: such a client is
//! slowed on a few writes in every [`SKIP`] at most.

use std::time::{Duration, Instant};

/// The least time between the starts of two batches while the SQLite writer is paced.
pub const PACE: Duration = Duration::from_millis(3);

/// Waits in a row that gathered no other write, after which the writer stops waiting.
const IDLE_WAITS: u32 = 3;

/// Batches begun without waiting after [`IDLE_WAITS`] idle waits.
const SKIP: u32 = 16;

/// What the writer remembers of its last batches.
#[derive(Debug)]
pub struct Pace {
    /// The least time between the starts of two batches while paced.
    period: Duration,
    /// When the last batch began.
    last_start: Option<Instant>,
    /// Waits in a row that gathered no other write.
    idle: u32,
    /// Batches still to begin without waiting.
    skip: u32,
}

impl Default for Pace {
    /// Paced at [`PACE`].
    fn default() -> Pace {
        Pace::every(PACE)
    }
}

impl Pace {
    /// A writer whose batches begin at most every `period` while paced.
    pub fn every(period: Duration) -> Pace {
        Pace {
            period,
            last_start: None,
            idle: 0,
            skip: 0,
        }
    }

    /// Called with the first write of a batch in hand: sleeps until the period after the last
    /// batch began, if that is still ahead and waiting is worth it. Sleeping, rather than
    /// waiting on the queue, lets the writes arrive without waking the writer for each. True
    /// when it slept.
    pub fn wait(&mut self) -> bool {
        match self.due() {
            Some(rest) => {
                std::thread::sleep(rest);
                true
            }
            None => false,
        }
    }

    /// [`Pace::wait`] without the sleep: how long to wait before the batch begins (`None`: not
    /// at all), for a writer that sleeps its own way.
    pub fn due(&mut self) -> Option<Duration> {
        if self.skip > 0 {
            self.skip -= 1;
            return None;
        }
        let due = self.last_start.map(|t| t + self.period)?;
        let now = Instant::now();
        (due > now).then(|| due - now)
    }

    /// A batch of `writes` began at `at`, after [`Pace::wait`] returned `waited`.
    pub fn began(&mut self, at: Instant, waited: bool, writes: usize) {
        self.last_start = Some(at);
        if !waited {
            return;
        }
        if writes > 1 {
            self.idle = 0;
        } else {
            self.idle += 1;
            if self.idle >= IDLE_WAITS {
                self.idle = 0;
                self.skip = SKIP;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch start a little ahead, so that a loaded machine's delays between two lines
    /// cannot make the pace run out before the test waits.
    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(10)
    }

    #[test]
    fn a_write_long_after_the_last_batch_does_not_wait() {
        let mut pace = Pace::default();
        assert!(!pace.wait(), "nothing to wait for before the first batch");
        pace.began(Instant::now() - 2 * PACE, false, 1);
        let t = Instant::now();
        assert!(!pace.wait());
        assert!(t.elapsed() < PACE);
    }

    #[test]
    fn a_write_soon_after_a_batch_waits_until_the_pace_is_out() {
        let mut pace = Pace::default();
        let start = soon();
        pace.began(start, false, 1);
        assert!(pace.wait());
        assert!(Instant::now() >= start + PACE);
    }

    #[test]
    fn a_writer_paced_at_a_longer_period_waits_that_long() {
        let period = 4 * PACE;
        let mut pace = Pace::every(period);
        let start = soon();
        pace.began(start, false, 1);
        assert!(pace.due().expect("a batch just began") > PACE);
        assert!(pace.wait());
        assert!(Instant::now() >= start + period);
    }

    #[test]
    fn after_waits_that_gathered_nothing_the_next_batches_do_not_wait() {
        let mut pace = Pace::default();
        pace.began(soon(), false, 1);
        for _ in 0..IDLE_WAITS {
            assert!(pace.wait());
            pace.began(soon(), true, 1);
        }
        for _ in 0..SKIP {
            assert!(!pace.wait());
            pace.began(soon(), false, 1);
        }
        assert!(
            pace.wait(),
            "the writer waits again after the skipped batches"
        );
        // A wait that gathered several writes keeps the pace.
        pace.began(soon(), true, 3);
        assert!(pace.wait());
    }
}
