//! The FTP client chart behaves as Qt's example uses it: the host feeds it the user's
//! commands (`cmd.*`) and the server's replies (`reply.Nxx`), and writes to the server the
//! commands the chart asks for with `submit.cmd.*` events. The session test is Qt's
//! `main.cpp` against a scripted server; the others pin the prefix descriptors and the
//! mangled names of the dotted ids.

use scxml_examples::ftpclient::{events, FtpClient, State};
use serde_json::json;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// The server's reply to a command, as `(code, text)`; a transfer gets a preliminary reply
/// then a completion reply.
fn server_replies(verb: &str) -> Vec<(u32, &'static str)> {
    match verb {
        "USER" => vec![(331, "Please specify the password.")],
        "PASS" => vec![(230, "Login successful.")],
        "PORT" => vec![(200, "PORT command successful.")],
        "RETR" => vec![
            (150, "Opening BINARY mode data connection."),
            (226, "Transfer complete."),
        ],
        _ => vec![(502, "Command not implemented.")],
    }
}

/// Qt's `main.cpp`: replies become `reply.Nxx` events, `submit.cmd.*` events become
/// commands to the server, entering `B` posts the next command, entering `P` sends the
/// password.
#[test]
fn qts_session_logs_in_and_retrieves_a_file() {
    let ftp = FtpClient::new();
    let wire = Rc::new(RefCell::new(Vec::<String>::new()));
    let commands = Rc::new(RefCell::new(VecDeque::from([
        ("cmd.USER", "anonymous"),
        ("cmd.PORT", "127,0,0,1,195,80"),
        ("cmd.RETR", "welcome.msg"),
    ])));
    let finished = Rc::new(RefCell::new(false));

    // Translate commands from the state machine into FTP control messages; the scripted
    // server answers each one.
    let (log, machine) = (Rc::clone(&wire), ftp.downgrade());
    ftp.connect_to_event("submit.cmd", move |e| {
        let verb = &e.name["submit.cmd.".len()..];
        let params = e.data["params"].as_str().unwrap_or_default();
        log.borrow_mut().push(format!("{verb} {params}"));
        let ftp = machine.upgrade().expect("machine alive");
        for (code, text) in server_replies(verb) {
            ftp.submit_event(&format!("reply.{}xx", code / 100), text);
        }
    });
    // When entering "B", send the next command.
    let (todo, done, machine) = (Rc::clone(&commands), Rc::clone(&finished), ftp.downgrade());
    ftp.connect_to_state(State::B, move |entered| {
        if !entered {
            return;
        }
        let ftp = machine.upgrade().expect("machine alive");
        match todo.borrow_mut().pop_front() {
            Some((cmd, args)) => ftp.submit_event(cmd, args),
            None => *done.borrow_mut() = true,
        }
    });
    // If the server asks for a password, send one.
    let machine = ftp.downgrade();
    ftp.connect_to_state(State::P, move |entered| {
        if entered {
            let ftp = machine.upgrade().expect("machine alive");
            ftp.submit_event(events::CMD_PASS, "");
        }
    });
    ftp.connect_to_error(|e| panic!("no error expected: {e}"));

    ftp.start();
    assert_eq!(ftp.active_atomic_state_ids(), ["I"]);
    ftp.submit_event(events::REPLY_2XX, "220 (vsFTPd 3.0.3)"); // the greeting

    assert_eq!(
        *wire.borrow(),
        [
            "USER anonymous",
            "PASS ",
            "PORT 127,0,0,1,195,80",
            "RETR welcome.msg"
        ]
    );
    assert!(*finished.borrow(), "every command was posted");
    assert!(commands.borrow().is_empty());
    assert_eq!(ftp.active_atomic_state_ids(), ["S"]);
    assert!(ftp.is_running());
}

/// Follows one command through the waiting states, recording the `submit.cmd.*` events.
#[test]
fn accepted_commands_wait_in_w_and_are_submitted_with_their_params() {
    let ftp = FtpClient::new();
    let submitted = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&submitted);
    ftp.connect_to_event("submit.*", move |e| {
        log.borrow_mut().push((e.name.clone(), e.data.clone()))
    });
    ftp.start();
    ftp.submit_event(events::REPLY_2XX, "220");
    assert!(ftp.is_active(State::S) && ftp.is_active(State::B));

    ftp.submit_event(events::CMD_USER, "anonymous");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.user"]);
    assert!(ftp.is_active(State::W));
    ftp.submit_event(events::REPLY_3XX, "331");
    assert_eq!(ftp.active_atomic_state_ids(), ["P"]);
    ftp.submit_event(events::CMD_PASS, "secret");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.login"]);
    ftp.submit_event(events::REPLY_2XX, "230");
    assert_eq!(ftp.active_atomic_state_ids(), ["S"]);

    ftp.submit_event(events::CMD_LIST, "");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.1xx"]);
    ftp.submit_event(events::REPLY_1XX, "150");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.transfer"]);
    ftp.submit_event(events::REPLY_2XX, "226");
    assert_eq!(ftp.active_atomic_state_ids(), ["S"]);

    ftp.submit_event(events::CMD_CWD, "pub");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.general"]);
    ftp.submit_event(events::REPLY_5XX, "550 no such directory");
    assert_eq!(ftp.active_atomic_state_ids(), ["F"]);

    assert_eq!(
        *submitted.borrow(),
        [
            ("submit.cmd.USER".to_owned(), json!({"params": "anonymous"})),
            ("submit.cmd.PASS".to_owned(), json!({"params": "secret"})),
            ("submit.cmd.LIST".to_owned(), json!({"params": ""})),
            ("submit.cmd.CWD".to_owned(), json!({"params": "pub"})),
        ]
    );
}

/// `G`'s `cmd` and `reply` transitions are prefix descriptors: they take every command and
/// reply that no deeper state handles.
#[test]
fn prefix_descriptors_catch_what_deeper_states_do_not_handle() {
    let started = || {
        let ftp = FtpClient::new();
        ftp.start();
        ftp
    };

    // A command before the greeting: `cmd` on `G` fails it.
    let ftp = started();
    ftp.submit_event(events::CMD_USER, "anonymous");
    assert_eq!(ftp.active_atomic_state_ids(), ["F"]);

    // A command `B` does not list (PASV): `cmd` fails it; `B` still takes the next one.
    ftp.submit_event("cmd.PASV", "");
    assert_eq!(ftp.active_atomic_state_ids(), ["F"]);
    ftp.submit_event(events::CMD_NOOP, "");
    assert_eq!(ftp.active_atomic_state_ids(), ["W.general"]);

    // A command while waiting for a reply: `cmd` fails it.
    ftp.submit_event(events::CMD_QUIT, "");
    assert_eq!(ftp.active_atomic_state_ids(), ["F"]);

    // A reply while waiting for a login (3xx is only expected after USER): `reply` on `G`
    // ends the session in the final state `E`, and the machine stops.
    ftp.submit_event(events::CMD_SYST, "");
    ftp.submit_event(events::REPLY_3XX, "");
    assert!(!ftp.is_running());
    assert!(ftp.active_atomic_state_ids().is_empty());

    // An unsolicited reply while idle ends it too; so does a bare `reply`.
    for reply in [events::REPLY_2XX, events::REPLY] {
        let ftp = started();
        ftp.submit_event(events::REPLY_2XX, "220");
        ftp.submit_event(reply, "");
        assert!(!ftp.is_running(), "{reply}");
    }

    // `reply.4xx reply.5xx` on `W`: either code fails the command.
    for reply in [events::REPLY_4XX, events::REPLY_5XX] {
        let ftp = started();
        ftp.submit_event(events::REPLY_2XX, "220");
        ftp.submit_event(events::CMD_STOR, "file");
        ftp.submit_event(reply, "");
        assert_eq!(ftp.active_atomic_state_ids(), ["F"], "{reply}");
    }
}

/// Ids with dots become `UpperCamelCase` variants and map back to the chart's ids; event
/// names with dots become `SCREAMING_SNAKE_CASE` constants.
#[test]
fn dotted_ids_and_event_names_are_mangled_predictably() {
    let pairs = [
        (State::G, "G"),
        (State::W, "W"),
        (State::W1xx, "W.1xx"),
        (State::WTransfer, "W.transfer"),
        (State::WGeneral, "W.general"),
        (State::WUser, "W.user"),
        (State::WLogin, "W.login"),
        (State::E, "E"),
    ];
    for (state, id) in pairs {
        assert_eq!(state.id(), id);
        assert_eq!(State::from_id(id), Some(state));
        assert_eq!(state.to_string(), id);
    }
    assert_eq!(State::from_id("W1xx"), None);
    assert_eq!(events::CMD, "cmd");
    assert_eq!(events::CMD_USER, "cmd.USER");
    assert_eq!(events::REPLY, "reply");
    assert_eq!(events::REPLY_2XX, "reply.2xx");
    assert_eq!(events::REPLY_4XX, "reply.4xx");
}
