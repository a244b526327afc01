//! Charts that Qt's `qscxmlc` compiles and SCXML allows, compiled by `build.rs` and run:
//! ids and event names that differ only in punctuation or case (`charts/qt_names.scxml`),
//! `<history>` without a default transition (`charts/history_without_default.scxml`) and an
//! empty `<scxml>` (`charts/empty.scxml`, Qt Creator's new-chart template); and Qt's own
//! `tests/auto/compiled/topmachine.scxml` (`../tests/charts/qt`), run as Qt's test runs it.

mod names {
    include!(concat!(env!("OUT_DIR"), "/qt_names.rs"));
}
mod history {
    include!(concat!(env!("OUT_DIR"), "/history_without_default.rs"));
}
mod empty {
    include!(concat!(env!("OUT_DIR"), "/empty.rs"));
}
mod topmachine {
    include!(concat!(env!("OUT_DIR"), "/topmachine.rs"));
}

#[test]
fn ids_that_differ_in_punctuation_or_case_get_their_own_names() {
    use names::{events, QtNames, State};
    // Pretty names where there is no clash; `_2`, `_3` in document order where there is.
    let expected = [
        (State::FooBar, "foo.bar"),
        (State::FooBar_3, "foo-bar"),
        (State::FooBar_4, "foo_bar"),
        (State::Näl, "näl"),
        (State::N0xe4L, "n_0xe4_l"),
        (State::Valid, "_VALID"),
        (State::Valid_2, "__valid"),
        (State::QÿI, "q\u{ff}\u{300}i"),
        (State::State1, "State_1"),
        (State::State1_2, "State1"),
        (State::G10, "g1_0"),
        (State::G10_2, "g10"),
        (State::Chosen, "named"),
        (State::FooBar_2, "done"),
    ];
    for (state, id) in expected {
        assert_eq!(state.id(), id);
        assert_eq!(State::from_id(id), Some(state));
    }
    assert_eq!(State::ALL.len(), 15);
    // `_` has no letter or digit: it is named by its index.
    assert_eq!(
        State::from_id("_").map(|s| format!("{s:?}")),
        Some("State4".to_owned())
    );
    assert_eq!(
        (events::VALID, events::VALID_2, events::VALID_3),
        ("valid", "-valid-", "VALID")
    );
    assert_eq!(events::NÄL, "näl");

    let m = QtNames::new();
    m.start();
    let mut walk = vec![m.active_state_ids()];
    for e in [
        events::VALID,
        events::VALID_2,
        events::VALID_3,
        events::GO,
        events::NÄL,
    ] {
        m.submit_event(e, ());
        walk.push(m.active_state_ids());
    }
    assert_eq!(
        walk,
        [
            ["foo.bar"],
            ["foo-bar"],
            ["foo_bar"],
            ["_"],
            ["näl"],
            ["n_0xe4_l"]
        ]
    );
    for _ in 0..9 {
        m.submit_event(events::GO, ());
    }
    assert_eq!(m.final_state(), Some(State::FooBar_2));
}

#[test]
fn a_history_without_default_enters_the_parents_initial_state() {
    use history::{events, HistoryWithoutDefault, State};
    let m = HistoryWithoutDefault::new();
    m.start();
    m.submit_event(events::ENTER, ());
    assert_eq!(m.active_atomic_state_ids(), ["second"]);
    m.submit_event(events::NEXT, ());
    m.submit_event(events::LEAVE, ());
    m.submit_event(events::ENTER, ());
    assert!(m.is_active(State::First), "the history was recorded");

    m.submit_event(events::LEAVE, ());
    m.submit_event(events::DEEP, ());
    assert_eq!(m.active_atomic_state_ids(), ["left", "right"]);
}

#[test]
fn an_empty_chart_starts_and_has_no_states() {
    let m = empty::Empty::new();
    m.start();
    assert!(m.is_running());
    assert!(m.active_state_ids().is_empty());
    m.submit_event("anything", ());
    assert!(m.active_state_ids().is_empty());
    assert!(empty::State::ALL.is_empty());
}

#[test]
fn qts_top_machine_hears_its_three_submachines_finish() {
    // Qt's tst_compiled::topMachine: connectToEvent("done.invoke.submachine") counts 3.
    let m = topmachine::TopMachine::new();
    let done = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = done.clone();
    m.connect_to_event("done.invoke.submachine", move |e| {
        log.borrow_mut().push(e.name.clone())
    });
    m.start();
    let mut done = done.borrow().clone();
    done.sort();
    assert_eq!(
        done,
        [
            "done.invoke.submachine.1",
            "done.invoke.submachine.2",
            "done.invoke.submachine.3"
        ]
    );
}
