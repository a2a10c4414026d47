//! [`ParallelReader`]: one WARC file read by several threads, with exactly the records
//! and errors of the sequential [`Reader`], in the same order; and [`Parts`], the same
//! reading for threads that take the parts themselves (the batch's workers, which
//! tokenize the records of the part they read).
//!
//! # How
//!
//! The file is cut into parts of [`ParallelReader::part_size`] bytes. Part `k` covers
//! `[s_k, s_k+1)`. The sequential reader's state at the start of a member (of a record in
//! a `.warc`) depends on nothing but that offset and the bytes after it, so two readers
//! that start a member at the same offset read the same things from there on. A *chain*
//! of decisions, shared by every thread, follows the sequential reader through the parts
//! in order: it holds `p`, the offset at which the sequential reader starts its next
//! member (record), and the first part not decided yet, the one `p` falls in. Part 0
//! starts at 0; each part, once decided, hands `p` on to where its reading landed (the
//! first member start at or past `s_k+1`); parts `p` jumps over (a member longer than a
//! part) hold nothing.
//!
//! A thread that takes part `k` when the chain has reached it reads from `p` with the
//! sequential reader — recovery rules and all — every member (record) that starts before
//! `s_k+1`. When the chain has not reached part `k` yet, the thread *guesses*: it looks
//! for the first likely member start at or after `s_k` (in a `.warc.gz`, the bytes
//! `1f 8b 08` of a gzip member that inflates to `WARC/`; in a `.warc`, a version line
//! such as `WARC/1.1` at the start of a line) and reads from there. Once the chain reaches
//! part `k`, the guess is settled: if its reading started a member at `p` (it started at
//! `p`, or met `p` after a false start), its items from `p` on are the sequential
//! reader's. If not (a false candidate — fake gzip magic in a stored deflate block, a
//! `WARC/1.0` line inside a payload — or damage made the sequential reader land
//! elsewhere), the part is read again from `p`. Either way a part's items are the
//! sequential reader's, record for record and error for error, before anyone sees them:
//! a false candidate costs time, never correctness, and nothing read on a guess is handed
//! out.
//!
//! Who settles a guess: with [`Parts`] (the batch's workers, which go on to tokenize the
//! records of the part they read), the thread that guessed, waiting for the chain; a
//! part hands `p` on as soon as it is read, before its records are handed out, so the
//! waits are short, and they only ever go to earlier parts, whose reading waits for
//! nothing later (no deadlock, whatever the number of threads). [`ParallelReader`]'s
//! workers only read (there is nothing to overlap a wait with): they never wait for the
//! chain, and the merge, which takes the parts in order, settles them and reads again
//! the parts whose guess was wrong.
//!
//! # Memory
//!
//! [`ParallelReader`]: finished parts wait in memory until their turn, at most
//! `threads + 1` parts read ahead, so memory is bounded by that many parts' records
//! (with the default 1 MiB parts of a typical `.warc.gz`, some 5 MB of records each).
//! [`Parts`]: each thread holds the records of the part it read.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::detect::first_container;
use super::input::is_version_line;
use super::limits::*;
use super::pool::BufferPool;
use super::reader::{Reader, RecordOptions};
use super::record::*;
use super::stream::*;

/// Whether `head`, a file's first bytes (at least [`GZIP_PEEK`] of them, or all), begin a
/// WARC record after line ends, plain or in a gzip member; a zstd or LZ4 file (always
/// read as WARC) is taken to. Only such files are read in parts.
fn starts_warc_file(head: &[u8]) -> bool {
    matches!(
        Codec::of(&head[..head.len().min(4)]),
        Some(Codec::Zstd | Codec::Lz4)
    ) || first_container(head) == Some(Format::Warc)
}

/// The default for [`ParallelReader::part_size`].
const DEFAULT_PART: u64 = 1 << 20;

/// How many compressed candidates a guess judges false before it gives up (the part is
/// then read from where the sequential reader starts in it, once that is known): the
/// guess only saves time, and judging a zstd candidate decodes its first block, up to
/// 128 KiB. A payload stored with a crafted frame start every few bytes would make each
/// part's guess judge thousands of them, far slower than the sequential reader, which
/// never looks at them in an intact file. In files as written, compressed data holds a
/// false candidate once in many megabytes.
const MAX_FALSE_CANDIDATES: u32 = 16;

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

/// Opens a `.warc`, `.warc.gz`, `.warc.zst` or `.warc.lz4` file to be read by `threads`
/// threads (0 or 1: the sequential [`Reader`], on the calling thread); an `.arc` or
/// `.arc.gz` file is read by the sequential reader. See [`ParallelReader`].
pub fn open_parallel(path: &Path, threads: usize) -> io::Result<ParallelReader> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut head = Vec::with_capacity(GZIP_PEEK);
    (&mut file).take(GZIP_PEEK as u64).read_to_end(&mut head)?;
    Ok(ParallelReader::new(
        Input::Path(path.to_path_buf()),
        len,
        &head,
        threads,
    ))
}

/// Reads the `response` and `resource` records of one `.warc`, `.warc.gz`, `.warc.zst` or `.warc.lz4` on several
/// threads, yielding exactly what [`Reader`] yields — the same records with the same
/// offsets and lengths, the same errors — in the same order (how: the file is cut into
/// parts, each worker reads a part from where the sequential reader starts in it, or from
/// a likely record start that is checked before its records are kept). Files smaller
/// than two parts, and `threads` 0 or 1, are read by the sequential [`Reader`] on the
/// calling thread.
///
/// ```no_run
/// # fn main() -> std::io::Result<()> {
/// let reader = htmltok_archive::warc::open_parallel("CC-MAIN-example.warc.gz".as_ref(), 4)?;
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
    /// The file's first record is a WARC record (else it is read sequentially: see
    /// `is_split`).
    warc: bool,
    threads: usize,
    part: u64,
    /// The settings each part's [`Reader`] is made with.
    records: RecordOptions,
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
    /// A reader of `input`, `len` bytes that begin with `head` (at least their first
    /// [`GZIP_PEEK`], or all of them).
    fn new(input: Input, len: u64, head: &[u8], threads: usize) -> ParallelReader {
        ParallelReader {
            input,
            len,
            codec: Codec::of(&head[..head.len().min(4)]),
            warc: starts_warc_file(head),
            threads,
            part: DEFAULT_PART,
            records: RecordOptions::default(),
            state: State::NotStarted,
        }
    }

    /// A reader of a WARC file in memory (plain, gzip or zstd, told apart by its first
    /// bytes).
    pub fn from_bytes(bytes: impl Into<Arc<[u8]>>, threads: usize) -> ParallelReader {
        let bytes: Arc<[u8]> = bytes.into();
        ParallelReader::new(
            Input::Bytes(bytes.clone()),
            bytes.len() as u64,
            &bytes[..bytes.len().min(GZIP_PEEK)],
            threads,
        )
    }

    /// Whether to yield `resource` records too (the default), as [`Reader::resources`].
    pub fn resources(mut self, yes: bool) -> Self {
        self.records.resources = yes;
        self
    }

    /// Whether to yield the records of every type, as [`Reader::every_record`].
    pub fn every_record(mut self, yes: bool) -> Self {
        self.records.every_record = yes;
        self
    }

    /// The largest `Content-Length` accepted, as [`Reader::max_record_len`].
    pub fn max_record_len(mut self, bytes: u64) -> Self {
        self.records.max_record_len = bytes;
        self
    }

    /// Reads record bodies into buffers taken from `pool`, as [`Reader::buffer_pool`]:
    /// a consumer on another thread that gives them back saves the page faults of a new
    /// allocation per record.
    pub fn buffer_pool(mut self, pool: Arc<BufferPool>) -> Self {
        self.records.pool = Some(pool);
        self
    }

    /// The size of the parts the file is cut into (default 1 MiB; at least 1). Smaller
    /// parts spread a small file over the threads but cost a search for a record start
    /// each.
    pub fn part_size(mut self, bytes: u64) -> Self {
        self.part = bytes.max(1);
        self
    }

    /// Parts of about 1.5 MB of records (256 KiB of a `.warc.gz` or `.warc.zst`, 512 KiB
    /// of a `.warc.lz4`, 1.5 MiB of a `.warc`), for threads that tokenize a part's records
    /// right after reading it ([`Parts`]): they are then still in the core's cache, and
    /// the threads run out of parts at nearly the same time. A `.warc.lz4` part is larger
    /// as LZ4 inflates less; for a `.warc` the part size matters little.
    pub fn record_sized_parts(self) -> Self {
        let part = match self.codec {
            Some(Codec::Gzip | Codec::Zstd) => 256 << 10,
            Some(Codec::Lz4) => 512 << 10,
            None => 1536 << 10,
        };
        self.part_size(part)
    }

    /// Whether the file is read by worker threads (known once reading started).
    pub fn is_parallel(&self) -> bool {
        matches!(self.state, State::Parallel(_))
    }

    /// The file's parts, for threads of the caller's to read ([`Parts::read`]) instead of
    /// this reader's own; the reader itself back when the file is read sequentially
    /// (`threads` 0 or 1, under two parts) or reading already started.
    pub fn into_parts(self) -> Result<Parts, Box<ParallelReader>> {
        if !matches!(self.state, State::NotStarted) || !self.is_split() {
            return Err(Box::new(self));
        }
        match self.plan() {
            Ok(plan) => Ok(Parts(Arc::new(plan))),
            // The sequential reader meets the same error and reports it.
            Err(_) => Err(Box::new(self)),
        }
    }

    /// Whether the file is read in parts.
    /// Only a file whose first record is a WARC record is: an ARC file is read by the
    /// sequential reader (its records can still be processed on every thread). ARC is a
    /// legacy format, its files are small (the Internet Archive's are 100 MB), and the
    /// guesses of a part's start would need a second judgment (an ARC header line) for
    /// little gain. A file that begins with neither is read sequentially too (the parts
    /// read from a guess are read as WARC, which the sequential reader must agree on).
    fn is_split(&self) -> bool {
        self.threads > 1 && self.len.div_ceil(self.part) >= 2 && self.warc
    }

    fn plan(&self) -> io::Result<Plan> {
        Ok(Plan {
            input: self.input.clone(),
            codec: self.codec,
            dictionary: match self.codec {
                Some(Codec::Zstd) => leading_dictionary(self.input.open_at(0)?),
                _ => None,
            },
            zstd_contexts: Contexts::default(),
            cuts: Cuts::new(self.len, self.part),
            records: self.records.clone(),
            chain: Mutex::new(Chain {
                decided: 0,
                next: Some(0),
                stop: false,
            }),
            changed: Condvar::new(),
        })
    }

    fn start(&mut self) -> io::Result<()> {
        if !self.is_split() {
            let reader = Reader::with_options(self.input.open_at(0)?, self.records.clone());
            self.state = State::Sequential(Box::new(reader));
            return Ok(());
        }
        let plan = self.plan()?;
        let parts = plan.cuts.parts;
        let shared = Arc::new(Workers {
            plan,
            window: self.threads as u64 + 1,
            state: Mutex::new(Window {
                next: 0,
                taken: 0,
                done: BTreeMap::new(),
                stop: false,
            }),
            changed: Condvar::new(),
        });
        let workers = (0..self.threads.min(parts as usize))
            .map(|_| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name("warc-part".to_string())
                    .spawn(move || shared.work())
            })
            .collect::<io::Result<Vec<_>>>();
        let workers = match workers {
            Ok(workers) => workers,
            Err(error) => {
                // Those that started must not wait for parts nobody will read.
                shared.stop();
                return Err(error);
            }
        };
        self.state = State::Parallel(Merge {
            shared,
            workers,
            pending: VecDeque::new(),
            next: 0,
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

/// A WARC file cut into parts, for threads that each take whole parts: [`Parts::read`]
/// gives the sequential reader's items of one part, and the items of all the parts, in
/// part order, are exactly the sequential [`Reader`]'s. Each part is read once, on any
/// thread; since reading a part may wait for the earlier parts to be read (see the module
/// documentation), a thread must not read part `k` unless every part before it has been
/// read or is being read by another thread: taking the parts from a shared counter in
/// order, as the batch's jobs do, ensures it.
#[derive(Clone)]
pub struct Parts(Arc<Plan>);

impl Parts {
    /// How many parts there are.
    pub fn count(&self) -> u64 {
        self.0.cuts.parts
    }

    /// The sequential reader's items (records and errors) of the members (records) that
    /// start in part `k`, in order. Waits until the parts before it have been read (they
    /// must have been taken by other threads, or be read before, by this one). A panic of
    /// the reader (a bug) goes on to the caller, and the parts after it then come back
    /// empty instead of waiting forever.
    pub fn read(&self, k: u64) -> Vec<Result<Record, Error>> {
        self.0.read(k)
    }
}

impl fmt::Debug for Parts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parts")
            .field("input", &self.0.input)
            .field("cuts", &self.0.cuts)
            .finish_non_exhaustive()
    }
}

/// How a file is read in parts, and the chain of decisions the threads share.
struct Plan {
    input: Input,
    codec: Option<Codec>,
    /// A `.warc.zst`'s dictionary, as the sequential reader takes it from the file's start.
    dictionary: Option<Arc<[u8]>>,
    /// Spare zstd contexts (with the dictionary), for checking candidate frame starts and
    /// for reading parts: a new one costs an allocation and the dictionary's loading.
    zstd_contexts: Contexts,
    cuts: Cuts,
    records: RecordOptions,
    chain: Mutex<Chain>,
    changed: Condvar,
}

/// Where the parts begin and end: parts of the part size, but the file's last stretch
/// (up to two parts) in quarter parts, so that the threads run out of work at nearly the
/// same time, with less idle time for a thread at the end.
#[derive(Clone, Copy, Debug)]
struct Cuts {
    part: u64,
    quarter: u64,
    /// Parts of `part` bytes from the start.
    whole: u64,
    parts: u64,
}

impl Cuts {
    fn new(len: u64, part: u64) -> Cuts {
        let quarter = (part / 4).max(1);
        let whole = len.saturating_sub(2 * part) / part;
        Cuts {
            part,
            quarter,
            whole,
            parts: whole + (len - whole * part).div_ceil(quarter),
        }
    }

    fn start_of(&self, k: u64) -> u64 {
        if k <= self.whole {
            k * self.part
        } else {
            self.whole * self.part + (k - self.whole) * self.quarter
        }
    }

    /// Where part `k` ends: where the next begins, for the last part never.
    fn end_of(&self, k: u64) -> u64 {
        if k + 1 >= self.parts {
            u64::MAX
        } else {
            self.start_of(k + 1)
        }
    }
}

/// How far the parts are decided.
struct Chain {
    /// The parts below this one are decided (read, or known to hold nothing).
    decided: u64,
    /// Where the sequential reader starts its next member (record): in part `decided`
    /// (before its end) while there is one; None at the end of the input.
    next: Option<u64>,
    /// Nobody wants the parts any more (the reader was dropped, or a reading panicked).
    stop: bool,
}

/// What reading one part gave.
struct Part {
    /// Where each member (plain: record) it read started, in order.
    starts: Vec<u64>,
    /// The items, each with the start of the member (record) it belongs to.
    items: Vec<(u64, Result<Record, Error>)>,
    /// The start of the first member (record) at or past the part's end; None at the end
    /// of the input.
    landed: Option<u64>,
}

/// Where part `k` stands in the chain.
enum Turn {
    /// The sequential reader starts its first member in the part here.
    At(u64),
    /// Earlier parts are still being read.
    NotYet,
    /// The sequential reader starts no member in the part, or the reading stopped.
    Nothing,
}

impl Plan {
    fn lock(&self) -> MutexGuard<'_, Chain> {
        self.chain
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn end_of(&self, k: u64) -> u64 {
        self.cuts.end_of(k)
    }

    fn turn(&self, chain: &Chain, k: u64) -> Turn {
        if chain.stop || chain.decided > k {
            Turn::Nothing
        } else if chain.decided < k {
            Turn::NotYet
        } else {
            // A decided chain short of the last part always knows where it goes on.
            chain.next.map_or(Turn::Nothing, Turn::At)
        }
    }

    /// Waits for the chain to reach part `k`.
    fn wait_for(&self, k: u64) -> Option<u64> {
        let mut chain = self.lock();
        loop {
            match self.turn(&chain, k) {
                Turn::At(p) => return Some(p),
                Turn::Nothing => return None,
                Turn::NotYet => {
                    chain = self.changed.wait(chain).unwrap_or_else(|p| p.into_inner());
                }
            }
        }
    }

    /// Part `k` (the chain's next) was read and landed at `landed`: the chain moves on,
    /// past the parts that landing jumps over.
    fn decide(&self, k: u64, landed: Option<u64>) {
        let mut chain = self.lock();
        if chain.decided == k {
            chain.next = landed;
            chain.decided = k + 1;
            while chain.decided < self.cuts.parts
                && chain.next.is_none_or(|p| p >= self.end_of(chain.decided))
            {
                chain.decided += 1;
            }
        }
        self.changed.notify_all();
    }

    /// Stops the chain: no part waits for another any more.
    fn stop(&self) {
        self.lock().stop = true;
        self.changed.notify_all();
    }

    /// See [`Parts::read`].
    fn read(&self, k: u64) -> Vec<Result<Record, Error>> {
        let turn = self.turn(&self.lock(), k);
        let known = match turn {
            Turn::Nothing => return Vec::new(),
            Turn::At(p) => Some(p),
            Turn::NotYet => None,
        };
        match catch_unwind(AssertUnwindSafe(|| self.read_in_turn(k, known))) {
            Ok(items) => items,
            Err(panic) => {
                self.stop();
                resume_unwind(panic)
            }
        }
    }

    /// Reads part `k` from `known`, the sequential reader's first start in it, or else
    /// from a guess checked once the chain reaches the part; decides it.
    fn read_in_turn(&self, k: u64, known: Option<u64>) -> Vec<Result<Record, Error>> {
        let part = match known {
            Some(p) => self.read_in_part(k, p),
            None => {
                // A panic here (a bug) costs the guess only: the part is read again.
                let guess = catch_unwind(AssertUnwindSafe(|| self.guess(k))).ok();
                let Some(p) = self.wait_for(k) else {
                    return Vec::new();
                };
                self.settle(k, p, guess)
            }
        };
        self.decide(k, part.landed);
        part.items.into_iter().map(|(_, item)| item).collect()
    }

    /// Reads part `k` without waiting: from the sequential reader's first start in it when
    /// the chain has reached the part, else from a guess; None when the chain has passed
    /// it (nothing starts in it) or stopped. For [`ParallelReader`]'s workers, whose merge
    /// settles the parts in order ([`Plan::settle_in_turn`]).
    fn read_ahead(&self, k: u64) -> Option<Part> {
        let turn = self.turn(&self.lock(), k);
        match turn {
            Turn::Nothing => None,
            Turn::At(p) => Some(self.read_in_part(k, p)),
            Turn::NotYet => Some(self.guess(k)),
        }
    }

    /// The items of part `k`, read ahead as `ahead` (None: not read, or the reading
    /// panicked), once every part before it is decided; decides it. On the merge's
    /// thread, which settles the parts in order.
    fn settle_in_turn(&self, k: u64, ahead: Option<Part>) -> Vec<Result<Record, Error>> {
        let turn = self.turn(&self.lock(), k);
        let Turn::At(p) = turn else {
            return Vec::new();
        };
        let part = match ahead {
            Some(part) if k == 0 => part,
            ahead => self.settle(k, p, ahead),
        };
        self.decide(k, part.landed);
        part.items.into_iter().map(|(_, item)| item).collect()
    }

    /// Part `k` as the sequential reader reads it from `p`, its first start in the part:
    /// `read`'s items from `p` on if its reading started a member (record) at `p`, else the
    /// part read again from `p`.
    fn settle(&self, k: u64, p: u64, read: Option<Part>) -> Part {
        match read {
            Some(part) if part.starts.binary_search(&p).is_ok() => Part {
                items: part.items.into_iter().filter(|(t, _)| *t >= p).collect(),
                ..part
            },
            // The guess was not on the sequential reader's way: read the part again from
            // where the sequential reader is.
            _ => self.read_in_part(k, p),
        }
    }

    /// Reads part `k` from `p`, where the sequential reader starts its first member
    /// (record) in it.
    fn read_in_part(&self, k: u64, p: u64) -> Part {
        self.read_from(p, self.end_of(k), k == 0)
    }

    /// Reads part `k` from the first likely start in it, every member (record) that
    /// starts before its end.
    fn guess(&self, k: u64) -> Part {
        match self.find_start(self.cuts.start_of(k), self.end_of(k)) {
            Some(start) => self.read_from(start, self.end_of(k), false),
            None => Part {
                starts: Vec::new(),
                items: Vec::new(),
                landed: None,
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
                };
            }
        };
        let mut reader = Reader::with_options(inner, self.records.clone());
        if fresh {
            reader.stream.limit = limit;
            reader.stream.starts = Some(Vec::new());
        } else {
            reader.stream = Stream::part(reader.stream.take_input(), self.codec, start, limit);
            // Split files are WARC files (`is_split`), as the sequential reader decided on
            // the first record.
            reader.stream.format = Some(Format::Warc);
            reader.stream.dictionary = self.dictionary.clone();
            reader.stream.zstd_context = self.zstd_contexts.take();
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
        // The file's start may load a dictionary of its own: only the others' contexts
        // are known to hold the plan's.
        if let Some(context) = reader.stream.zstd_context.take().filter(|_| !fresh) {
            self.zstd_contexts.give(context);
        }
        Part {
            starts: reader.stream.starts.take().unwrap_or_default(),
            items,
            landed: reader.stream.landed,
        }
    }

    /// The first likely member (record) start in `[from, to)`: in a `.warc.gz`
    /// (`.warc.zst`), gzip magic (a zstd frame's) whose member (frame) decompresses to
    /// `WARC/`; in a `.warc`, a version line at a line start. None also after
    /// [`MAX_FALSE_CANDIDATES`] compressed candidates that are not.
    fn find_start(&self, from: u64, to: u64) -> Option<u64> {
        // The windows grow: the first start is most often within a record's length (tens
        // of KB compressed), and reading a large window into a fresh buffer every time
        // was a tenth of a millisecond per part.
        const MAX_WINDOW: usize = 256 << 10;
        const OVERLAP: u64 = 32;
        let mut window = 16 << 10;
        let mut false_candidates = 0;
        // A plain record start needs the LF before it.
        let mut at = if self.codec.is_some() { from } else { from - 1 };
        while at < to {
            let bytes = self.input.read_at(at, window).ok()?;
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
                    if bytes.len() - i < magic.len() && bytes.len() == window {
                        break; // look again in the next window
                    }
                    if bytes[i..].starts_with(magic) {
                        if self.decompresses_to_warc(codec, offset) {
                            return Some(offset);
                        }
                        false_candidates += 1;
                        if false_candidates >= MAX_FALSE_CANDIDATES {
                            return None;
                        }
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
                        None if bytes.len() == window && line.len() < 20 => break,
                        _ => {}
                    }
                }
            }
            if bytes.len() < window {
                return None;
            }
            at += window as u64 - OVERLAP;
            window = (window * 4).min(MAX_WINDOW);
        }
        None
    }

    /// Whether the member (frame) at `offset` decompresses to bytes starting `WARC/`.
    fn decompresses_to_warc(&self, codec: Codec, offset: u64) -> bool {
        // As the sequential reader decides it after damage: on the first bytes alone.
        match codec {
            Codec::Lz4 => {
                return self
                    .input
                    .read_at(offset, LZ4_PEEK)
                    .is_ok_and(|head| lz4_starts_warc(&head));
            }
            Codec::Gzip => {
                return self
                    .input
                    .read_at(offset, GZIP_PEEK)
                    .is_ok_and(|head| gzip_starts_warc(&head));
            }
            Codec::Zstd => {}
        }
        let Ok(inner) = self.input.open_at(offset) else {
            return false;
        };
        let context = match self.zstd_contexts.take() {
            Some(context) => context,
            None => match zstd_context(self.dictionary.as_deref()) {
                Ok(context) => context,
                Err(_) => return false,
            },
        };
        // Large reads: the first block, which has to be read whole, may be 128 KiB.
        match ZstdFrame::new(io::BufReader::with_capacity(64 << 10, inner), context) {
            Ok(frame) => decodes_to_warc(&mut ReturnContext(Some(frame), &self.zstd_contexts)),
            Err(_) => false,
        }
    }
}

/// Spare zstd contexts.
#[derive(Default)]
struct Contexts(Mutex<Vec<ZstdContext>>);

impl Contexts {
    fn lock(&self) -> MutexGuard<'_, Vec<ZstdContext>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn take(&self) -> Option<ZstdContext> {
        self.lock().pop()
    }

    fn give(&self, context: ZstdContext) {
        self.lock().push(context);
    }
}

/// A zstd frame whose context goes back to the pool when it is dropped.
struct ReturnContext<'a, B>(Option<ZstdFrame<B>>, &'a Contexts);

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
            self.1.give(frame.context);
        }
    }
}

/// A [`ParallelReader`]'s worker threads and its merge share this.
struct Workers {
    plan: Plan,
    /// How many parts past the one the merge waits for may be read ahead.
    window: u64,
    state: Mutex<Window>,
    changed: Condvar,
}

struct Window {
    /// The next part a worker takes.
    next: u64,
    /// The part the merge takes next.
    taken: u64,
    /// Parts read and not yet merged (None: nothing read, or the reading panicked).
    done: BTreeMap<u64, Option<Part>>,
    /// The reader was dropped.
    stop: bool,
}

impl Workers {
    fn lock(&self) -> MutexGuard<'_, Window> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// A worker: takes parts in order, within the window, until there are none.
    fn work(&self) {
        loop {
            let k = {
                let mut window = self.lock();
                loop {
                    if window.stop || window.next >= self.plan.cuts.parts {
                        return;
                    }
                    if window.next < window.taken + self.window {
                        break;
                    }
                    window = self.changed.wait(window).unwrap_or_else(|p| p.into_inner());
                }
                window.next += 1;
                window.next - 1
            };
            // No waiting for the parts before: the merge settles the parts in order. A
            // panic (a bug) costs the reading only: the merge reads the part again.
            let part = catch_unwind(AssertUnwindSafe(|| self.plan.read_ahead(k)))
                .ok()
                .flatten();
            let mut window = self.lock();
            if !window.stop {
                window.done.insert(k, part);
            }
            self.changed.notify_all();
        }
    }

    fn stop(&self) {
        self.lock().stop = true;
        self.changed.notify_all();
        self.plan.stop();
    }
}

/// The merge, on the thread that iterates: the parts' items in part order.
struct Merge {
    shared: Arc<Workers>,
    workers: Vec<JoinHandle<()>>,
    pending: VecDeque<Result<Record, Error>>,
    /// The next part to take.
    next: u64,
}

impl Merge {
    fn next(&mut self) -> Option<Result<Record, Error>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.next >= self.shared.plan.cuts.parts {
                return None;
            }
            let ahead = self.take(self.next);
            let items = self.shared.plan.settle_in_turn(self.next, ahead);
            self.pending.extend(items);
            self.next += 1;
        }
    }

    /// Waits for part `k` and takes it.
    fn take(&self, k: u64) -> Option<Part> {
        let mut window = self.shared.lock();
        loop {
            if let Some(part) = window.done.remove(&k) {
                window.taken = k + 1;
                self.shared.changed.notify_all();
                return part;
            }
            window = self
                .shared
                .changed
                .wait(window)
                .unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for Merge {
    fn drop(&mut self) {
        self.shared.stop();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cuts;

    /// The parts cover the file, in order, none empty; the last stretch is in quarter
    /// parts.
    #[test]
    fn cuts_cover_the_file() {
        for part in [1, 2, 3, 4, 5, 16, 1000, 1 << 20] {
            for len in [
                part + 1,
                2 * part,
                2 * part + 1,
                3 * part - 1,
                10 * part + 7,
            ] {
                let cuts = Cuts::new(len, part);
                assert_eq!(cuts.start_of(0), 0);
                for k in 0..cuts.parts {
                    let end = cuts.end_of(k);
                    let end = if end == u64::MAX { len } else { end };
                    assert!(cuts.start_of(k) < end, "part {part}, len {len}, k {k}");
                    assert!(end - cuts.start_of(k) <= part);
                }
                assert_eq!(cuts.end_of(cuts.parts - 1), u64::MAX);
                assert!(cuts.start_of(cuts.parts - 1) < len);
                if part >= 4 && len >= 3 * part {
                    assert_eq!(
                        cuts.end_of(cuts.parts - 2) - cuts.start_of(cuts.parts - 2),
                        part / 4
                    );
                }
            }
        }
    }
}
