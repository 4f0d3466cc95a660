//! The GitHub surface: event fixtures, the Checks API against a local stand-in server,
//! shallow-clone deepening, the hook, and the action files.

mod action;
pub(crate) mod api;
pub(crate) mod binary;
mod common;
mod events;
mod fetch;
mod hook;
