//! Every record's text with its name, from files, folders and zip archives (shared by the
//! examples that read BoardSpace's archive).

use std::io::Read;
use std::path::Path;

/// Every record's text with its name, from files, folders and zip archives.
pub fn records(path: &Path, out: &mut Vec<(String, String)>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            records(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "sgf") {
        if let Ok(bytes) = std::fs::read(path) {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            out.push((
                name.into_owned(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    } else if path.extension().is_some_and(|e| e == "zip") {
        let Ok(file) = std::fs::File::open(path) else {
            return;
        };
        let Ok(mut archive) = zip::ZipArchive::new(file) else {
            return;
        };
        let zip_name = path.file_name().unwrap_or_default().to_string_lossy();
        for i in 0..archive.len() {
            let Ok(mut entry) = archive.by_index(i) else {
                continue;
            };
            if !entry.name().ends_with(".sgf") {
                continue;
            }
            let name = format!("{zip_name}!{}", entry.name());
            let mut bytes = Vec::new();
            if entry.read_to_end(&mut bytes).is_ok() {
                out.push((name, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
}
