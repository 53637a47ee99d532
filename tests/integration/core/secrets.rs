//! `core::secrets`: secrets planted in projects are found; real code raises
//! no false alarm.

mod corpus;
mod planted;
