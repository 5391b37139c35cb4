//! Whether a store's writer gets its commits through, shared by every backend: the health
//! check reads why not, and every table follows the `saving` flag to pause and resume.

use std::sync::Mutex;

use tokio::sync::watch;

/// Whether the writer's commits go through: read by the health check and by tables.
#[derive(Debug)]
pub struct Health {
    /// Why the last commit failed, while commits fail.
    failing: Mutex<Option<String>>,
    /// `true` while commits go through; `false` while the writer retries a failed one.
    saving: watch::Sender<bool>,
}

impl Default for Health {
    fn default() -> Health {
        Health::new()
    }
}

impl Health {
    /// Healthy.
    pub fn new() -> Health {
        Health {
            failing: Mutex::new(None),
            saving: watch::channel(true).0,
        }
    }

    /// Why commits fail, while they do.
    pub fn failing(&self) -> Option<String> {
        self.failing.lock().ok().and_then(|f| f.clone())
    }

    /// Follows whether commits go through.
    pub fn saving(&self) -> watch::Receiver<bool> {
        self.saving.subscribe()
    }

    /// Records whether the last commit worked.
    pub fn set(&self, err: Option<String>) {
        let ok = err.is_none();
        if let Ok(mut failing) = self.failing.lock() {
            *failing = err;
        }
        self.saving
            .send_if_modified(|saving| std::mem::replace(saving, ok) != ok);
    }
}
