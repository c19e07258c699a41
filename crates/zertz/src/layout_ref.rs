//! [`LayoutRef`]: the handle by which positions, setups and games hold their layout.
//!
//! A position is copied for every move played, and its layout is read at every step of move
//! generation, so the handle is one pointer, followed without a branch, like the
//! `&'static Layout` it replaced. An official layout lives for the whole program and is pointed
//! at directly. A custom one lives in an [`Arc`], and the handle owns one strong count of it
//! (the pointer of [`Arc::into_raw`]). The layout itself says which of the two it is
//! (`Layout::in_arc`), so only cloning and dropping a handle look at it. (An enum of the two
//! cases, 16 bytes with a branch on every access, made perft with every move played 4 % slower
//! on the official boards.)
//!
//! This is the one module of the rules library with `unsafe` code. What makes it sound:
//! `in_arc` is set in one place, [`LayoutRef::share`], just before the layout is moved into the
//! `Arc` whose count the handle owns; a layout is never moved out of it while a handle lives
//! (the handle holds a count); and a handle made from a `&'static Layout` whose `in_arc` is set
//! (a layout moved out of its `Arc` through a [`Weak`] after its handles went, then leaked)
//! does not trust the flag, and holds a copy of its own instead.

use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::{Arc, Weak};

use crate::layout::Layout;

/// A handle to a layout, as positions, setups and games hold it: one pointer, cheap to clone,
/// and it derefs to the [`Layout`].
///
/// An official layout is held by a `&'static` reference, so cloning a position of an official
/// board is a plain copy; a custom layout is held as by an [`Arc`], so it is freed when its last
/// handle goes (cloning one is an atomic increment).
pub struct LayoutRef {
    /// A `&'static Layout` when the layout's `in_arc` is false; otherwise the pointer given by
    /// `Arc::into_raw` of an `Arc<Layout>`, one strong count of which this handle owns.
    ptr: NonNull<Layout>,
}

// SAFETY: a handle is, in effect, a `&'static Layout` or an `Arc<Layout>`, and both may be sent
// and shared between threads when `Layout` is `Send` and `Sync` (checked just below).
unsafe impl Send for LayoutRef {}
unsafe impl Sync for LayoutRef {}

const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Layout>();
};

impl LayoutRef {
    /// Moves a newly built custom layout into an `Arc` and gives the first handle to it.
    pub(crate) fn share(mut layout: Layout) -> LayoutRef {
        layout.in_arc = true;
        LayoutRef::owning(Arc::new(layout))
    }

    /// A handle to a layout already shared (one from the registry's `Weak`, upgraded), taking
    /// over the count of `layout`.
    pub(crate) fn from_arc(layout: Arc<Layout>) -> LayoutRef {
        assert!(
            layout.in_arc,
            "only a layout shared by LayoutRef::share is in an Arc"
        );
        LayoutRef::owning(layout)
    }

    fn owning(layout: Arc<Layout>) -> LayoutRef {
        let ptr = Arc::into_raw(layout).cast_mut();
        LayoutRef {
            ptr: NonNull::new(ptr).expect("Arc::into_raw never gives a null pointer"),
        }
    }

    /// The `Arc` this handle holds a count of, without taking that count (`None` for an
    /// official layout).
    fn arc(&self) -> Option<ManuallyDrop<Arc<Layout>>> {
        if self.in_arc {
            // SAFETY: `in_arc` says `ptr` came from `Arc::into_raw`, and this handle's count
            // keeps it alive; `ManuallyDrop` leaves that count with the handle.
            Some(ManuallyDrop::new(unsafe {
                Arc::from_raw(self.ptr.as_ptr())
            }))
        } else {
            None
        }
    }

    /// The layout as a `&'static` reference when it is an official one (it lives for the whole
    /// program), `None` for a custom layout.
    pub fn as_static(&self) -> Option<&'static Layout> {
        if self.in_arc {
            None
        } else {
            // SAFETY: a layout not in an `Arc` is pointed at by a `&'static` reference.
            Some(unsafe { &*self.ptr.as_ptr() })
        }
    }

    /// A handle to a copy of this layout that shares nothing with it: the same places, id and
    /// symmetries, in memory of its own (an official layout is not copied). For a thread that
    /// clones positions all the time, so that it does not contend with other threads for the
    /// count of one shared layout.
    pub fn private_copy(&self) -> LayoutRef {
        if self.in_arc {
            LayoutRef::share(self.copy())
        } else {
            self.clone()
        }
    }

    /// A weak reference to a custom layout (`None` for an official one, which is never freed):
    /// it upgrades while some handle still holds the layout.
    pub fn downgrade(&self) -> Option<Weak<Layout>> {
        self.arc().map(|arc| Arc::downgrade(&arc))
    }
}

impl Drop for LayoutRef {
    #[inline]
    fn drop(&mut self) {
        if self.in_arc {
            // SAFETY: this handle owns one strong count of the `Arc` that `ptr` came from.
            unsafe { Arc::decrement_strong_count(self.ptr.as_ptr()) }
        }
    }
}

impl Clone for LayoutRef {
    #[inline]
    fn clone(&self) -> LayoutRef {
        if self.in_arc {
            // SAFETY: `ptr` came from `Arc::into_raw` and this handle's count keeps the `Arc`
            // alive; the new handle owns the count taken here.
            unsafe { Arc::increment_strong_count(self.ptr.as_ptr()) }
        }
        LayoutRef { ptr: self.ptr }
    }

    /// Nothing to do when both hold the same layout: a loop that plays each move on a clone
    /// of one position (`child.clone_from(position)`) counts no reference per move.
    #[inline]
    fn clone_from(&mut self, source: &LayoutRef) {
        if self.ptr != source.ptr {
            *self = source.clone();
        }
    }
}

impl Deref for LayoutRef {
    type Target = Layout;

    #[inline]
    fn deref(&self) -> &Layout {
        // SAFETY: the layout lives for the whole program, or while this handle's count does.
        unsafe { self.ptr.as_ref() }
    }
}

impl AsRef<Layout> for LayoutRef {
    fn as_ref(&self) -> &Layout {
        self
    }
}

impl std::borrow::Borrow<Layout> for LayoutRef {
    fn borrow(&self) -> &Layout {
        self
    }
}

impl From<&'static Layout> for LayoutRef {
    /// A handle to a layout that lives for the whole program (an official one). A custom layout
    /// reached by a `&'static` reference (a handle leaked on purpose) gets a private copy: the
    /// reference alone does not prove which `Arc` the layout is in.
    fn from(layout: &'static Layout) -> LayoutRef {
        if layout.in_arc {
            LayoutRef::share(layout.copy())
        } else {
            LayoutRef {
                ptr: NonNull::from(layout),
            }
        }
    }
}

impl From<&LayoutRef> for LayoutRef {
    fn from(layout: &LayoutRef) -> LayoutRef {
        layout.clone()
    }
}

impl PartialEq for LayoutRef {
    fn eq(&self, other: &LayoutRef) -> bool {
        **self == **other
    }
}

impl Eq for LayoutRef {}

impl PartialEq<Layout> for LayoutRef {
    fn eq(&self, other: &Layout) -> bool {
        **self == *other
    }
}

impl PartialEq<&Layout> for LayoutRef {
    fn eq(&self, other: &&Layout) -> bool {
        **self == **other
    }
}

impl fmt::Debug for LayoutRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}
