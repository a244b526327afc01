//! A chart whose state ids, kept verbatim, are the names of `State`'s own items (`ALL`, `id`,
//! `from_id`) and of what used to be a private helper (`index`): the states get `ALL_`, `id_`
//! and `from_id_` (`index` stays), so the helpers stay reachable with the enum and the
//! newtype compiles.

mod as_enum {
    include!(concat!(env!("OUT_DIR"), "/item_names_enum.rs"));
}
mod as_newtype {
    include!(concat!(env!("OUT_DIR"), "/item_names_newtype.rs"));
}

macro_rules! check {
    ($m:ident) => {{
        use $m::{events, ItemNames, State};
        assert_eq!(
            State::ALL,
            [State::ALL_, State::id_, State::from_id_, State::index]
        );
        assert_eq!(State::ALL_.id(), "ALL");
        assert_eq!(State::id_.id(), "id");
        assert_eq!(State::from_id("from_id"), Some(State::from_id_));
        assert_eq!(State::from_id("index"), Some(State::index));
        assert_eq!(format!("{:?} {}", State::id_, State::id_), "id_ id");
        let m = ItemNames::new();
        m.start();
        m.submit_event(events::GO, ());
        m.submit_event(events::GO, ());
        m.submit_event(events::GO, ());
        assert_eq!(m.active_states(), [State::index]);
        m.submit_event(events::GO, ());
        assert!(m.is_active(State::ALL_));
    }};
}

#[test]
fn states_named_like_state_items_keep_the_items_reachable() {
    check!(as_enum);
    check!(as_newtype);
}
