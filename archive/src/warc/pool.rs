//! [`BufferPool`]: record buffers handed back by whoever finished with them, for the
//! reader to fill again.
//!
//! Why: when one thread reads records and others consume them (the [`ParallelReader`]
//! and a batch's workers), every record's body is a fresh allocation in the reading
//! thread's heap, freed by another thread. The allocator gives such memory back to the
//! system and takes it again, and each time every page of it is a page fault, a
//! noticeable part of the run spent in the kernel. A pool keeps the pages: a buffer given
//! back is cleared, not freed, and the next record is read into it.
//!
//! [`ParallelReader`]: super::ParallelReader

use std::sync::Mutex;

/// Buffers kept for reuse, shared by the threads that read records
/// ([`Reader::buffer_pool`](super::Reader::buffer_pool),
/// [`ParallelReader::buffer_pool`](super::ParallelReader::buffer_pool)) and those that
/// consume them ([`BufferPool::give`]). It holds at most `max_buffers` buffers of at most
/// `max_capacity` bytes each; others are freed as usual, so memory stays bounded.
#[derive(Debug)]
pub struct BufferPool {
    free: Mutex<Vec<Vec<u8>>>,
    max_buffers: usize,
    max_capacity: usize,
}

impl BufferPool {
    /// A pool of at most `max_buffers` buffers, none kept above `max_capacity` bytes.
    pub fn new(max_buffers: usize, max_capacity: usize) -> BufferPool {
        BufferPool {
            free: Mutex::new(Vec::with_capacity(max_buffers)),
            max_buffers,
            max_capacity,
        }
    }

    /// An empty buffer with room for at least `capacity` bytes: the smallest one given
    /// back that has it, else a new one. (A smaller buffer from the pool would have to be
    /// reallocated, and the copy and the new pages are what the pool is there to save.)
    pub fn take(&self, capacity: usize) -> Vec<u8> {
        let mut free = self.lock();
        let best = free
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= capacity)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        match best {
            Some(i) => free.swap_remove(i),
            None => {
                drop(free);
                Vec::with_capacity(capacity)
            }
        }
    }

    /// Gives a buffer back for a later record (emptied first; freed instead when the pool
    /// is full or the buffer is larger than the pool keeps).
    pub fn give(&self, mut buffer: Vec<u8>) {
        if buffer.capacity() == 0 || buffer.capacity() > self.max_capacity {
            return;
        }
        buffer.clear();
        let mut free = self.lock();
        if free.len() < self.max_buffers {
            free.push(buffer);
        }
    }

    /// How many buffers wait to be reused.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no buffer waits to be reused.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        // A panic while the lock was held leaves a valid list of buffers.
        self.free
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_empty_with_their_capacity() {
        let pool = BufferPool::new(2, 1 << 20);
        assert!(pool.take(0).capacity() == 0 && pool.is_empty());
        let mut a = Vec::with_capacity(1000);
        a.extend_from_slice(b"record");
        pool.give(a);
        assert_eq!(pool.len(), 1);
        let b = pool.take(500);
        assert!(b.is_empty() && b.capacity() >= 1000);
        assert!(pool.is_empty());
    }

    #[test]
    fn the_smallest_buffer_that_fits_is_taken() {
        let pool = BufferPool::new(4, 1 << 20);
        for capacity in [4000, 1000, 2000] {
            pool.give(Vec::with_capacity(capacity));
        }
        let fits = pool.take(1500);
        assert!((2000..4000).contains(&fits.capacity()));
        let none_fits = pool.take(8000);
        assert!(none_fits.capacity() >= 8000);
        assert_eq!(pool.len(), 2);
    }

    #[test]
    fn the_pool_stays_bounded() {
        let pool = BufferPool::new(2, 4096);
        for _ in 0..5 {
            pool.give(Vec::with_capacity(100));
        }
        assert_eq!(pool.len(), 2);
        pool.take(0);
        pool.take(0);
        pool.give(Vec::with_capacity(1 << 20)); // larger than it keeps
        pool.give(Vec::new()); // nothing to keep
        assert!(pool.is_empty());
    }
}
