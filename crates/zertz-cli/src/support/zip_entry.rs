//! The records of a `.zip` archive unpacked one after another by one inflater per reading
//! thread. An archive holds thousands of records of a few kilobytes each; the `zip` crate's own
//! reader sets up (and clears) a fresh 32 KB inflate window and buffer for every entry, which
//! cost more than the inflating itself. Here the raw deflate bytes are read as stored, and one
//! inflater is reset between entries; the size and CRC-32 from the archive's directory are
//! checked as the `zip` crate checks them.

use std::io::{Read, Seek};

use flate2::{Decompress, FlushDecompress, Status};
use zip::{CompressionMethod, ZipArchive};

/// The largest record unpacked: BoardSpace's records are a few kilobytes, so a bigger entry is
/// not one (and is not unpacked into memory on its directory's word).
pub(crate) const MAX_ENTRY_BYTES: u64 = 16 << 20;

/// Unpacks entries, reusing its buffers and inflater from one entry to the next.
pub(crate) struct EntryReader {
    raw: Vec<u8>,
    inflater: Decompress,
}

impl Default for EntryReader {
    fn default() -> Self {
        EntryReader {
            raw: Vec::new(),
            // Raw deflate: a zip entry has no zlib header.
            inflater: Decompress::new(false),
        }
    }
}

impl EntryReader {
    /// The unpacked bytes of entry `index` of `zip`, or why they cannot be had.
    pub(crate) fn read<R: Read + Seek>(
        &mut self,
        zip: &mut ZipArchive<R>,
        index: usize,
    ) -> Result<Vec<u8>, String> {
        let mut entry = zip
            .by_index_raw(index)
            .map_err(|e| format!("bad entry: {e}"))?;
        let size = entry.size();
        if size > MAX_ENTRY_BYTES {
            return Err(format!(
                "cannot unpack: the entry holds {size} bytes, more than a record \
                 ({MAX_ENTRY_BYTES} at most)"
            ));
        }
        let (method, crc) = (entry.compression(), entry.crc32());
        self.raw.clear();
        entry
            .read_to_end(&mut self.raw)
            .map_err(|e| format!("cannot unpack: {e}"))?;
        let bytes = match method {
            CompressionMethod::Stored => self.raw.clone(),
            CompressionMethod::Deflated => self.inflate(size as usize)?,
            other => {
                return Err(format!(
                    "cannot unpack: compression {other} is not supported"
                ));
            }
        };
        if bytes.len() as u64 != size {
            return Err(format!(
                "cannot unpack: {} bytes where the archive's directory says {size}",
                bytes.len()
            ));
        }
        if crc32fast::hash(&bytes) != crc {
            return Err("cannot unpack: the CRC-32 does not match the archive's directory".into());
        }
        Ok(bytes)
    }

    /// Inflates `self.raw`, which the directory says unpacks to `size` bytes.
    fn inflate(&mut self, size: usize) -> Result<Vec<u8>, String> {
        self.inflater.reset(false);
        // One byte more than announced, so that an entry longer than its directory says is
        // seen as such rather than cut.
        let mut out = Vec::with_capacity(size + 1);
        loop {
            let read = self.inflater.total_in() as usize;
            let written = out.len();
            let status = self
                .inflater
                .decompress_vec(&self.raw[read..], &mut out, FlushDecompress::Finish)
                .map_err(|e| format!("cannot unpack: {e}"))?;
            match status {
                Status::StreamEnd => return Ok(out),
                _ if out.len() == out.capacity() => return Ok(out),
                _ if self.inflater.total_in() as usize == read && out.len() == written => {
                    return Err("cannot unpack: the compressed data ends early".into());
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use super::*;

    fn archive(entries: &[(&str, &[u8], CompressionMethod)]) -> ZipArchive<Cursor<Vec<u8>>> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes, method) in entries {
            let options = zip::write::SimpleFileOptions::default().compression_method(*method);
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
        ZipArchive::new(writer.finish().unwrap()).unwrap()
    }

    #[test]
    fn entries_unpack_one_after_another_with_one_inflater() {
        let long: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let mut zip = archive(&[
            (
                "a.sgf",
                b"(;GM[1]P0[id \"x\"])",
                CompressionMethod::Deflated,
            ),
            ("b.sgf", &long, CompressionMethod::Deflated),
            ("c.sgf", b"stored as is", CompressionMethod::Stored),
            ("d.sgf", b"", CompressionMethod::Deflated),
        ]);
        let mut reader = EntryReader::default();
        for round in 0..2 {
            assert_eq!(reader.read(&mut zip, 0).unwrap(), b"(;GM[1]P0[id \"x\"])");
            assert_eq!(reader.read(&mut zip, 1).unwrap(), long, "round {round}");
            assert_eq!(reader.read(&mut zip, 2).unwrap(), b"stored as is");
            assert_eq!(reader.read(&mut zip, 3).unwrap(), b"");
        }
        assert!(
            reader
                .read(&mut zip, 4)
                .unwrap_err()
                .starts_with("bad entry")
        );
    }

    /// The archive's bytes with the first occurrence of `from` replaced by `to`.
    fn patched(zip: ZipArchive<Cursor<Vec<u8>>>, from: &[u8], to: &[u8]) -> Vec<u8> {
        let mut bytes = zip.into_inner().into_inner();
        let at = bytes
            .windows(from.len())
            .position(|w| w == from)
            .expect("the bytes to patch");
        bytes[at..at + to.len()].copy_from_slice(to);
        bytes
    }

    #[test]
    fn damaged_entries_are_refused_with_the_reason() {
        // A stored entry whose bytes were changed: the CRC-32 tells.
        let zip = archive(&[("a.sgf", b"hello world", CompressionMethod::Stored)]);
        let bytes = patched(zip, b"hello", b"jello");
        let mut zip = ZipArchive::new(Cursor::new(bytes)).unwrap();
        let err = EntryReader::default().read(&mut zip, 0).unwrap_err();
        assert!(err.contains("CRC-32"), "{err}");

        // Deflated bytes cut short or garbled: an error, never a panic.
        let text: Vec<u8> = (0..5000u32)
            .flat_map(|i| (i * 7 % 13).to_le_bytes())
            .collect();
        let zip = archive(&[("b.sgf", &text, CompressionMethod::Deflated)]);
        let mut raw = zip.clone();
        let mut compressed = Vec::new();
        raw.by_index_raw(0)
            .unwrap()
            .read_to_end(&mut compressed)
            .unwrap();
        let mut garbled = compressed.clone();
        for b in garbled.iter_mut().skip(2) {
            *b ^= 0x5a;
        }
        let bytes = patched(zip, &compressed, &garbled);
        let mut zip = ZipArchive::new(Cursor::new(bytes)).unwrap();
        let err = EntryReader::default().read(&mut zip, 0).unwrap_err();
        assert!(err.starts_with("cannot unpack"), "{err}");
    }
}
