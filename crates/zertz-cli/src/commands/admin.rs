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
        let store = zertz_server::app::store::open(&db).await?;
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
            zertz_server::util::iso_time(r.at_ms),
            r.line.seq,
            r.line.text,
            r.reporter
        );
    }
    Ok(())
}
