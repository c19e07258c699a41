//! `zertz admin`: what the site's operator looks after. `reports` lists the chat lines players
//! reported, newest first, with who said them, where, and who reported them.

use clap::{Args, Subcommand};

/// Options of `zertz admin`.
#[derive(Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    what: AdminCommand,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// The chat lines reported by players, newest first.
    Reports {
        /// Database: the server's SQLite file or a `postgres://` URL.
        #[arg(long, default_value = "zertz.db")]
        db: String,
        /// Reports shown at most.
        #[arg(long, default_value_t = 100)]
        limit: i64,
    },
}

/// Runs `zertz admin`.
pub fn run(args: AdminArgs) -> anyhow::Result<()> {
    let AdminCommand::Reports { db, limit } = args.what;
    if !db.starts_with("postgres") && !std::path::Path::new(&db).exists() {
        anyhow::bail!("{db}: no such database file (give the server's --db)");
    }
    let runtime = tokio::runtime::Runtime::new()?;
    let reports = runtime.block_on(async {
        let store = zertz_server::store::open(&db).await?;
        anyhow::Ok(store.reports(limit.clamp(1, 10_000)).await?)
    })?;
    if reports.is_empty() {
        println!("no reported lines");
    }
    for r in reports {
        let where_ = r.line.room.replace(':', " ");
        let who = if r.line.guest {
            format!("{} (guest)", r.line.name)
        } else {
            r.line.name.clone()
        };
        println!(
            "{}  {where_} line {}  {who}: {}\n    reported by {}",
            time_text(r.at_ms),
            r.line.seq,
            r.line.text,
            r.reporter
        );
    }
    Ok(())
}

/// A time in ms since the epoch as `YYYY-MM-DD HH:MM UTC`.
fn time_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let (h, m) = (secs.rem_euclid(86_400) / 3600, secs.rem_euclid(3600) / 60);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{d:02} {h:02}:{m:02} UTC")
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_civil_dates() {
        assert_eq!(super::time_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::time_text(1_764_072_300_000), "2025-11-25 12:05 UTC");
    }
}
