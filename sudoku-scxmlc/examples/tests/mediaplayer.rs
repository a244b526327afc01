//! The media player behaves as Qt's example documents it: a tap on a media plays it, a tap on
//! the media playing stops it, a tap on another media switches to it; every change is
//! announced by `playbackStarted` / `playbackStopped` events carrying the media.

use scxml_examples::mediaplayer::{events, MediaPlayerStateMachine as Player, State};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// A started player and the announcements it makes, as `"playbackStarted a.mp3"`.
fn player() -> (Player, Rc<RefCell<Vec<String>>>) {
    let player = Player::new();
    let heard = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&heard);
    player.connect_to_event("playbackStarted playbackStopped", move |e| {
        let media = e
            .param::<String>("media")
            .expect("announcements carry the media");
        log.borrow_mut().push(format!("{} {media}", e.name));
    });
    player.connect_to_error(|e| panic!("no error expected: {e}"));
    player.start();
    (player, heard)
}

fn tap(player: &Player, media: &str) {
    player.submit_event(events::TAP, json!({ "media": media }));
}

fn media(player: &Player) -> String {
    player.with_data(|d| d.media.clone())
}

#[test]
fn starts_stopped_and_a_tap_plays_the_media() {
    let (player, heard) = player();
    assert_eq!(player.active_atomic_state_ids(), ["stopped"]);
    assert!(heard.borrow().is_empty());
    tap(&player, "Song 1");
    assert!(player.is_active(State::Playing));
    assert_eq!(media(&player), "Song 1");
    assert_eq!(player.data_value("media"), Some(json!("Song 1")));
    assert_eq!(*heard.borrow(), ["playbackStarted Song 1"]);
}

#[test]
fn tapping_the_media_playing_stops_it() {
    let (player, heard) = player();
    tap(&player, "Song 1");
    tap(&player, "Song 1");
    assert!(player.is_active(State::Stopped));
    assert_eq!(
        *heard.borrow(),
        ["playbackStarted Song 1", "playbackStopped Song 1"]
    );
    // The last media stays in the datamodel, as Qt's `media` member does.
    assert_eq!(media(&player), "Song 1");
}

#[test]
fn tapping_another_media_switches_to_it() {
    let (player, heard) = player();
    tap(&player, "Song 1");
    tap(&player, "Song 2");
    assert!(player.is_active(State::Playing));
    assert_eq!(media(&player), "Song 2");
    // `playing → playing` is an external transition: `playing` is exited (stopping the old
    // media) and entered again (starting the new one).
    assert_eq!(
        *heard.borrow(),
        [
            "playbackStarted Song 1",
            "playbackStopped Song 1",
            "playbackStarted Song 2"
        ]
    );
    tap(&player, "Song 2");
    assert!(player.is_active(State::Stopped));
    assert_eq!(heard.borrow().last().unwrap(), "playbackStopped Song 2");
}

#[test]
fn a_tap_without_a_valid_media_is_ignored_when_stopped_and_stops_when_playing() {
    let (player, heard) = player();
    for data in [
        Value::Null,
        json!({}),
        json!({"media": ""}),
        json!({"media": 7}),
    ] {
        player.submit_event(events::TAP, data);
        assert!(player.is_active(State::Stopped));
    }
    assert!(heard.borrow().is_empty());
    assert_eq!(media(&player), "");

    tap(&player, "Song 3");
    player.submit_event(events::TAP, json!({"media": ""}));
    assert!(player.is_active(State::Stopped));
    assert_eq!(
        *heard.borrow(),
        ["playbackStarted Song 3", "playbackStopped Song 3"]
    );
}

#[test]
fn the_announcements_are_sent_events_with_the_media_as_param() {
    let player = Player::new();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&seen);
    player.connect_to_event(events::PLAYBACK_STARTED, move |e| {
        log.borrow_mut().push(e.clone())
    });
    player.start();
    tap(&player, "Song 4");
    let seen = seen.borrow();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].name, "playbackStarted");
    assert_eq!(seen[0].data, json!({"media": "Song 4"}));
    // Sent without `id` or `idlocation`: `_event.sendid` stays blank (SCXML 1.0, 5.10.1);
    // the SCXML event I/O processor fills in where it came from.
    assert_eq!(seen[0].sendid, None);
    assert_eq!(
        seen[0].origintype.as_deref(),
        Some("http://www.w3.org/TR/scxml/#SCXMLEventProcessor")
    );
}

#[test]
fn is_valid_media_is_qts_rule() {
    use scxml_examples::mediaplayer::is_valid_media;
    use sudoku_scxmlc::runtime::Event;
    assert!(is_valid_media(&Event::new("tap", json!({"media": "x"}))));
    assert!(!is_valid_media(&Event::new("tap", json!({"media": ""}))));
    assert!(!is_valid_media(&Event::new("tap", json!({"other": "x"}))));
    assert!(!is_valid_media(&Event::new("tap", Value::Null)));
}
