//! [`ParallelReader`]: one WARC file read by several threads, with exactly the records
//! and errors of the sequential [`Reader`], in the same order.
//!
//! # How
//!
//! The file is cut into parts of [`ParallelReader::part_size`] bytes. Part `k` covers
//! `[s_k, s_k+1)`: a worker thread looks for the first likely record start at or after
//! `s_k` (in a `.warc.gz`, the bytes `1f 8b 08` of a gzip member that inflates to
//! `WARC/`; in a `.warc`, a version line such as `WARC/1.1` at the start of a line), and
//! from there runs the sequential reader — recovery rules and all — over every member (or
//! record) that starts before `s_k+1`. It notes where each member (record) it read
//! started and where the first one at or past `s_k+1` starts (where it "landed").
//!
//! The sequential reader's state at the start of a member (of a record in a `.warc`)
//! depends on nothing but that offset and the bytes after it. So two readers that start a
//! member at the same offset read the same things from there on. The merge keeps the
//! offset `p` at which the sequential reader would start its next member — for part 0,
//! which is read from the file's start exactly as the sequential reader does, where it
//! landed — and takes the part `j` that `p` falls in: if that part's worker started a
//! member at `p` (it started at `p`, or met `p` after a false start), its items from `p`
//! on are the sequential reader's, and `p` becomes where it landed. If not (its start was
//! a false candidate — fake gzip magic in a stored deflate block, a `WARC/1.0` line inside
//! a payload — or damage made the sequential reader land elsewhere), the merging thread
//! reads that part again itself from `p`. Either way the output is the sequential
//! reader's, record for record and error for error; a false candidate costs time, never
//! correctness.
//!
//! # Memory
//!
//! Finished parts wait in memory until their turn: at most `threads + 1` parts are read
//! ahead, so memory is bounded by that many parts' records (with the default 1 MiB parts
//! of a typical `.warc.gz`, some 5 MB of records each). Small parts also keep the records
//! the merge hands out fresh in the cache, and the memory the allocator must fault in small.

use std::collections::{BTreeMap, VecDeque};
use std::io::{Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::*;

/// The default for [`ParallelReader::part_size`].
const DEFAULT_PART: u64 = 1 << 20;

/// Where a [`ParallelReader`] reads from.
#[derive(Clone, Debug)]
enum Input {
    Path(PathBuf),
    Bytes(Arc<[u8]>),
}

impl Input {
    /// A reader of the input from `offset` on.
    fn open_at(&self, offset: u64) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Input::Path(path) => {
                let mut file = File::open(path)?;
                if offset > 0 {
                    file.seek(SeekFrom::Start(offset))?;
                }
                Ok(Box::new(file))
            }
            Input::Bytes(bytes) => {
                let mut cursor = io::Cursor::new(Arc::clone(bytes));
                cursor.set_position(offset);
                Ok(Box::new(cursor))
            }
        }
    }

    /// Up to `len` bytes from `offset` (fewer at the end of the input).
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::with_capacity(len);
        self.open_at(offset)?
            .take(len as u64)
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// Opens a `.warc`, `.warc.gz`, `.warc.zst` or `.warc.lz4` file to be read by `threads` threads (0 or 1: the
/// sequential [`Reader`], on the calling thread). See [`ParallelReader`].
pub fn open_parallel(path: &Path, threads: usize) -> io::Result<ParallelReader> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut head = Vec::with_capacity(4);
    (&mut file).take(4).read_to_end(&mut head)?;
    Ok(ParallelReader::new(
        Input::Path(path.to_path_buf()),
        len,
        Codec::of(&head),
        threads,
    ))
}

/// Reads the `response` and `resource` records of one `.warc`, `.warc.gz`, `.warc.zst` or `.warc.lz4` on several
/// threads, yielding exactly what [`Reader`] yields — the same records with the same
/// offsets and lengths, the same errors — in the same order (how: the file is cut into
/// parts, each worker starts its part at a confirmed record start and runs the sequential
/// reader, and the merge re-reads any part whose start the sequential reader would not
/// have reached). Files smaller than two parts, and `threads` 0
/// or 1, are read by the sequential [`Reader`] on the calling thread.
///
/// ```no_run
/// # fn main() -> std::io::Result<()> {
/// let reader = htmltok_crawl::warc::open_parallel("CC-MAIN-example.warc.gz".as_ref(), 4)?;
/// for record in reader {
///     match record {
///         Ok(record) => println!("{} {:?}", record.offset, record.target_uri),
///         Err(error) => eprintln!("{error}"),
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub struct ParallelReader {
    input: Input,
    len: u64,
    codec: Option<Codec>,
    threads: usize,
    part: u64,
    resources: bool,
    max_record_len: u64,
    pool: Option<Arc<BufferPool>>,
    state: State,
}

enum State {
    NotStarted,
    Sequential(Box<Reader<Box<dyn Read + Send>>>),
    Parallel(Merge),
    Done,
}

impl fmt::Debug for ParallelReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParallelReader")
            .field("input", &self.input)
            .field("len", &self.len)
            .field("codec", &self.codec)
            .field("threads", &self.threads)
            .field("part_size", &self.part)
            .finish_non_exhaustive()
    }
}

impl ParallelReader {
    fn new(input: Input, len: u64, codec: Option<Codec>, threads: usize) -> ParallelReader {
        ParallelReader {
            input,
            len,
            codec,
            threads,
            part: DEFAULT_PART,
            resources: true,
            max_record_len: DEFAULT_MAX_RECORD,
            pool: None,
            state: State::NotStarted,
        }
    }

    /// A reader of a WARC file in memory (plain, gzip or zstd, told apart by its first
    /// bytes).
    pub fn from_bytes(bytes: impl Into<Arc<[u8]>>, threads: usize) -> ParallelReader {
        let bytes: Arc<[u8]> = bytes.into();
        let codec = Codec::of(&bytes[..bytes.len().min(4)]);
        ParallelReader::new(
            Input::Bytes(bytes.clone()),
            bytes.len() as u64,
            codec,
            threads,
        )
    }

    /// Whether to yield `resource` records too (the default), as [`Reader::resources`].
    pub fn resources(mut self, yes: bool) -> Self {
        self.resources = yes;
        self
    }

    /// The largest `Content-Length` accepted, as [`Reader::max_record_len`].
    pub fn max_record_len(mut self, bytes: u64) -> Self {
        self.max_record_len = bytes;
        self
    }

    /// Reads record bodies into buffers taken from `pool`, as [`Reader::buffer_pool`]:
    /// a consumer on another thread that gives them back saves the page faults of a new
    /// allocation per record.
    pub fn buffer_pool(mut self, pool: Arc<BufferPool>) -> Self {
        self.pool = Some(pool);
        self
    }

    /// The size of the parts the file is cut into (default 1 MiB; at least 1). Smaller
    /// parts spread a small file over the threads but cost a search for a record start
    /// each.
    pub fn part_size(mut self, bytes: u64) -> Self {
        self.part = bytes.max(1);
        self
    }

    /// Whether the file is read by worker threads (known once reading started).
    pub fn is_parallel(&self) -> bool {
        matches!(self.state, State::Parallel(_))
    }

    fn start(&mut self) -> io::Result<()> {
        let parts = self.len.div_ceil(self.part);
        if self.threads <= 1 || parts < 2 {
            let mut reader = Reader::new(self.input.open_at(0)?)
                .resources(self.resources)
                .max_record_len(self.max_record_len);
            reader.pool = self.pool.clone();
            self.state = State::Sequential(Box::new(reader));
            return Ok(());
        }
        let plan = Arc::new(Plan {
            input: self.input.clone(),
            codec: self.codec,
            dictionary: match self.codec {
                Some(Codec::Zstd) => leading_dictionary(self.input.open_at(0)?),
                _ => None,
            },
            zstd_contexts: Mutex::new(Vec::new()),
            part: self.part,
            parts,
            resources: self.resources,
            max_record_len: self.max_record_len,
            pool: self.pool.clone(),
            window: self.threads as u64 + 1,
            state: Mutex::new(Parts {
                next: 0,
                taken: 0,
                done: BTreeMap::new(),
                stop: false,
            }),
            changed: Condvar::new(),
        });
        let workers = (0..self.threads.min(parts as usize))
            .map(|_| {
                let plan = Arc::clone(&plan);
                std::thread::Builder::new()
                    .name("warc-part".to_string())
                    .spawn(move || plan.work())
            })
            .collect::<io::Result<Vec<_>>>()?;
        self.state = State::Parallel(Merge {
            plan,
            workers,
            pending: VecDeque::new(),
            next: None,
            first: true,
        });
        Ok(())
    }
}

impl Iterator for ParallelReader {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match &mut self.state {
                State::NotStarted => {
                    if let Err(error) = self.start() {
                        self.state = State::Done;
                        return Some(Err(Error::new(0, ErrorKind::Io(error))));
                    }
                }
                State::Sequential(reader) => return reader.next(),
                State::Parallel(merge) => match merge.next() {
                    Some(item) => return Some(item),
                    None => self.state = State::Done,
                },
                State::Done => return None,
            }
        }
    }
}

/// What the workers and the merge share.
struct Plan {
    input: Input,
    codec: Option<Codec>,
    /// A `.warc.zst`'s dictionary, as the sequential reader takes it from the file's start.
    dictionary: Option<Arc<[u8]>>,
    /// zstd contexts (with the dictionary) for checking candidate frame starts.
    zstd_contexts: Mutex<Vec<ZstdContext>>,
    part: u64,
    parts: u64,
    resources: bool,
    max_record_len: u64,
    pool: Option<Arc<BufferPool>>,
    /// How many parts past the one the merge waits for may be read ahead.
    window: u64,
    state: Mutex<Parts>,
    changed: Condvar,
}

struct Parts {
    /// The next part a worker takes.
    next: u64,
    /// The parts below this one are not wanted any more.
    taken: u64,
    /// Parts read and not yet merged.
    done: BTreeMap<u64, Part>,
    /// The reader was dropped.
    stop: bool,
}

/// What a worker read of one part.
struct Part {
    /// Where each member (plain: record) it read started, in order.
    starts: Vec<u64>,
    /// The items, each with the start of the member (record) it belongs to.
    items: Vec<(u64, Result<Record, Error>)>,
    /// The start of the first member (record) at or past the part's end; None at the end
    /// of the input.
    landed: Option<u64>,
    /// The worker panicked.
    failed: bool,
}

impl Plan {
    fn lock(&self) -> MutexGuard<'_, Parts> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn end_of(&self, part: u64) -> u64 {
        if part + 1 >= self.parts {
            u64::MAX
        } else {
            (part + 1) * self.part
        }
    }

    /// A worker: takes parts in order, within the window, until there are none.
    fn work(&self) {
        loop {
            let k = {
                let mut parts = self.lock();
                loop {
                    if parts.stop || parts.next >= self.parts {
                        return;
                    }
                    if parts.next < parts.taken + self.window {
                        break;
                    }
                    parts = self.changed.wait(parts).unwrap_or_else(|p| p.into_inner());
                }
                let k = parts.next.max(parts.taken);
                parts.next = k + 1;
                k
            };
            // A panic in a worker (a bug) must not leave the merge waiting: the part is
            // then read again by the merge, on the caller's thread.
            let part = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.read_part(k)))
                .unwrap_or(Part {
                    starts: Vec::new(),
                    items: Vec::new(),
                    landed: None,
                    failed: true,
                });
            let mut parts = self.lock();
            if k >= parts.taken && !parts.stop {
                parts.done.insert(k, part);
            }
            self.changed.notify_all();
        }
    }

    /// Reads part `k`: from the first likely start in it, every member (record) that
    /// starts before its end.
    fn read_part(&self, k: u64) -> Part {
        let start = if k == 0 {
            Some(0)
        } else {
            self.find_start(k * self.part, self.end_of(k))
        };
        match start {
            Some(start) => self.read_from(start, self.end_of(k), k == 0),
            None => Part {
                starts: Vec::new(),
                items: Vec::new(),
                landed: None,
                failed: false,
            },
        }
    }

    /// Runs the sequential reader from `start` (a member or record start; `fresh`: the
    /// file's start, read exactly as [`Reader::new`] does) up to the first start at or
    /// past `limit`.
    fn read_from(&self, start: u64, limit: u64, fresh: bool) -> Part {
        let inner = match self.input.open_at(start) {
            Ok(inner) => inner,
            Err(error) => {
                return Part {
                    starts: vec![start],
                    items: vec![(start, Err(Error::new(start, ErrorKind::Io(error))))],
                    landed: None,
                    failed: false,
                };
            }
        };
        let mut reader = Reader::new(inner)
            .resources(self.resources)
            .max_record_len(self.max_record_len);
        reader.pool = self.pool.clone();
        if fresh {
            reader.stream.limit = limit;
            reader.stream.starts = Some(Vec::new());
        } else {
            reader.stream = Stream::part(reader.stream.take_input(), self.codec, start, limit);
            reader.stream.dictionary = self.dictionary.clone();
        }
        let mut items = Vec::new();
        for item in reader.by_ref() {
            let tag = match &item {
                Ok(record) => record.offset,
                Err(error) if !error.is_fatal() => error.offset,
                // An I/O error ends the reading: it goes with the last start.
                Err(_) => items.last().map_or(start, |(tag, _)| *tag),
            };
            items.push((tag, item));
            if items.len() % 64 == 0 && self.lock().stop {
                break;
            }
        }
        Part {
            starts: reader.stream.starts.take().unwrap_or_default(),
            items,
            landed: reader.stream.landed,
            failed: false,
        }
    }

    /// The first likely member (record) start in `[from, to)`: in a `.warc.gz`
    /// (`.warc.zst`), gzip magic (a zstd frame's) whose member (frame) decompresses to
    /// `WARC/`; in a `.warc`, a version line at a line start.
    fn find_start(&self, from: u64, to: u64) -> Option<u64> {
        const WINDOW: usize = 256 << 10;
        const OVERLAP: u64 = 32;
        // A plain record start needs the LF before it.
        let mut at = if self.codec.is_some() { from } else { from - 1 };
        while at < to {
            let bytes = self.input.read_at(at, WINDOW).ok()?;
            if bytes.is_empty() {
                return None;
            }
            if let Some(codec) = self.codec {
                let magic = codec.magic();
                for i in memchr::memchr_iter(magic[0], &bytes) {
                    let offset = at + i as u64;
                    if offset >= to {
                        return None;
                    }
                    if bytes.len() - i < magic.len() && bytes.len() == WINDOW {
                        break; // look again in the next window
                    }
                    if bytes[i..].starts_with(magic) && self.decompresses_to_warc(codec, offset) {
                        return Some(offset);
                    }
                }
            } else {
                for i in memchr::memmem::find_iter(&bytes, RECORD_START) {
                    let offset = at + i as u64 + 1;
                    if offset >= to {
                        return None;
                    }
                    let line = &bytes[i + 1..];
                    match memchr::memchr(b'\n', &line[..line.len().min(20)]) {
                        Some(end) if is_version_line(&line[..end]) => return Some(offset),
                        None if bytes.len() == WINDOW && line.len() < 20 => break,
                        _ => {}
                    }
                }
            }
            if bytes.len() < WINDOW {
                return None;
            }
            at += WINDOW as u64 - OVERLAP;
        }
        None
    }

    /// Whether the member (frame) at `offset` decompresses to bytes starting `WARC/`.
    fn decompresses_to_warc(&self, codec: Codec, offset: u64) -> bool {
        if codec == Codec::Lz4 {
            // As the sequential reader decides it after damage: on the first bytes alone.
            return self
                .input
                .read_at(offset, LZ4_PEEK)
                .is_ok_and(|head| lz4_starts_warc(&head));
        }
        let Ok(inner) = self.input.open_at(offset) else {
            return false;
        };
        let mut decoder: Box<dyn Read + '_> = match codec {
            Codec::Gzip => Box::new(flate2::read::GzDecoder::new(inner)),
            Codec::Lz4 => return false, // decided above
            Codec::Zstd => {
                let spare = self
                    .zstd_contexts
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .pop();
                let context = match spare {
                    Some(context) => context,
                    None => match zstd_context(self.dictionary.as_deref()) {
                        Ok(context) => context,
                        Err(_) => return false,
                    },
                };
                match ZstdFrame::new(io::BufReader::with_capacity(4096, inner), context) {
                    Ok(frame) => Box::new(ReturnContext(Some(frame), &self.zstd_contexts)),
                    Err(_) => return false,
                }
            }
        };
        let mut head = [0u8; 5];
        let mut got = 0;
        while got < head.len() {
            match decoder.read(&mut head[got..]) {
                Ok(0) | Err(_) => return false,
                Ok(n) => got += n,
            }
        }
        head == *b"WARC/"
    }
}

/// A zstd frame whose context goes back to the pool when it is dropped.
struct ReturnContext<'a, B>(Option<ZstdFrame<B>>, &'a Mutex<Vec<ZstdContext>>);

impl<B: BufRead> Read for ReturnContext<'_, B> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(frame) => frame.read(buf),
            None => Ok(0),
        }
    }
}

impl<B> Drop for ReturnContext<'_, B> {
    fn drop(&mut self) {
        if let Some(frame) = self.0.take() {
            self.1
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(frame.context);
        }
    }
}

/// The merge, on the thread that iterates.
struct Merge {
    plan: Arc<Plan>,
    workers: Vec<JoinHandle<()>>,
    pending: VecDeque<Result<Record, Error>>,
    /// Where the sequential reader starts its next member (record); None: at the end.
    next: Option<u64>,
    /// Part 0 is still to be taken.
    first: bool,
}

impl Merge {
    fn next(&mut self) -> Option<Result<Record, Error>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            let (k, p) = if self.first {
                self.first = false;
                (0, None)
            } else {
                let p = self.next?;
                ((p / self.plan.part).min(self.plan.parts - 1), Some(p))
            };
            let part = self.take(k);
            let part = match p {
                None if part.failed => self.plan.read_from(0, self.plan.end_of(0), true),
                None => part,
                Some(p) if part.starts.binary_search(&p).is_ok() => Part {
                    items: part.items.into_iter().filter(|(t, _)| *t >= p).collect(),
                    ..part
                },
                // The worker's start was not on the sequential reader's way: read the part
                // again from where the sequential reader is.
                Some(p) => self.plan.read_from(p, self.plan.end_of(k), false),
            };
            self.pending
                .extend(part.items.into_iter().map(|(_, item)| item));
            self.next = part.landed;
        }
    }

    /// Waits for part `k` and takes it; the parts before it are dropped.
    fn take(&self, k: u64) -> Part {
        let mut parts = self.plan.lock();
        parts.taken = parts.taken.max(k);
        parts.done.retain(|&i, _| i >= k);
        self.plan.changed.notify_all();
        loop {
            if let Some(part) = parts.done.remove(&k) {
                parts.taken = k + 1;
                self.plan.changed.notify_all();
                return part;
            }
            parts = self
                .plan
                .changed
                .wait(parts)
                .unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for Merge {
    fn drop(&mut self) {
        self.plan.lock().stop = true;
        self.plan.changed.notify_all();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}
