//! Qt's media-player chart (`charts/mediaplayer.scxml`, BSD-3-Clause), ported to the rust
//! datamodel.
//!
//! A `tap` event carries the media tapped (`{"media": "song.mp3"}`). Tapping a media while
//! `stopped` plays it; tapping the one playing stops it; tapping another switches to it. The
//! machine announces each change with a `playbackStarted` or `playbackStopped` event whose
//! `media` param names the media, which is what Qt's window shows:
//!
//! ```
//! use scxml_examples::mediaplayer::{events, MediaPlayerStateMachine, State};
//! use serde_json::json;
//!
//! let player = MediaPlayerStateMachine::new();
//! player.connect_to_event("playbackStarted playbackStopped", |e| {
//!     println!("{} {}", e.name, e.data["media"]);
//! });
//! player.start();
//! player.submit_event(events::TAP, json!({"media": "song.mp3"}));
//! assert!(player.is_active(State::Playing));
//! assert_eq!(player.with_data(|d| d.media.clone()), "song.mp3");
//! ```

include!(concat!(env!("OUT_DIR"), "/mediaplayer.rs"));

/// Qt's `TheDataModel::isValidMedia()`, which the chart's conditions call: whether the event
/// names a media, i.e. its `media` field is a non-empty string.
pub fn is_valid_media(event: &sudoku_scxmlc::runtime::Event) -> bool {
    event.data["media"].as_str().is_some_and(|m| !m.is_empty())
}
