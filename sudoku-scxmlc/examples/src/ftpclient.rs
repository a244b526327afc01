//! Qt's simple FTP client chart (`charts/simpleftp.scxml`, BSD-3-Clause), ported to the rust
//! datamodel: the command handling of RFC 959 as a state chart.
//!
//! The host submits the user's commands as `cmd.<VERB>` events (`cmd.USER`, `cmd.RETR`, …)
//! with the argument as data, and the server's replies as `reply.<N>xx` events. When a
//! command is accepted in state `B`, the chart enters a waiting state under `W` and sends
//! itself `submit.cmd.<VERB>` with `{"params": <the argument>}`: the host observes those with
//! `connect_to_event("submit.cmd", ..)` and writes the command to the server, as Qt's
//! `main.cpp` does. Ids keep their dots: `W.1xx` is `State::W1xx`, `W.user` is
//! `State::WUser`.
//!
//! ```
//! use scxml_examples::ftpclient::{events, FtpClient, State};
//!
//! let ftp = FtpClient::new();
//! ftp.connect_to_event("submit.cmd", |e| println!("send {} {}", &e.name[11..], e.data["params"]));
//! ftp.start();
//! ftp.submit_event(events::REPLY_2XX, "220 welcome"); // the server greets
//! assert!(ftp.is_active(State::S));
//! ftp.submit_event(events::CMD_USER, "anonymous"); // prints `send USER "anonymous"`
//! assert!(ftp.is_active(State::WUser));
//! ```

include!(concat!(env!("OUT_DIR"), "/simpleftp.rs"));
