//! Which attributes and children each SCXML element allows (SCXML 1.0, sections 3 to 6).

/// Executable content elements (SCXML 1.0, section 4).
pub const EXECUTABLE: &[&str] = &[
    "raise", "if", "foreach", "log", "assign", "send", "cancel", "script",
];

/// Allowed attributes and children of an element; `None` for an element this compiler does not
/// know.
pub fn rules(element: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    const STATE_CHILDREN: &[&str] = &[
        "onentry",
        "onexit",
        "transition",
        "initial",
        "state",
        "parallel",
        "final",
        "history",
        "datamodel",
        "invoke",
    ];
    Some(match element {
        "scxml" => (
            &[
                "initial",
                "name",
                "version",
                "datamodel",
                "binding",
                "exmode",
            ],
            &["state", "parallel", "final", "datamodel", "script"],
        ),
        "state" => (&["id", "initial"], STATE_CHILDREN),
        "parallel" => (
            &["id"],
            &[
                "onentry",
                "onexit",
                "transition",
                "state",
                "parallel",
                "history",
                "datamodel",
                "invoke",
            ],
        ),
        "final" => (&["id"], &["onentry", "onexit", "donedata"]),
        "initial" => (&[], &["transition"]),
        "history" => (&["id", "type"], &["transition"]),
        "transition" => (&["event", "cond", "target", "type"], EXECUTABLE),
        "onentry" | "onexit" => (&[], EXECUTABLE),
        "datamodel" => (&[], &["data"]),
        // An `<scxml>` child is a chart value an `<invoke><content expr>` can start.
        "data" => (&["id", "src", "expr"], &["scxml"]),
        "donedata" => (&[], &["content", "param"]),
        "content" => (&["expr"], &[]),
        "param" => (&["name", "expr", "location"], &[]),
        "script" => (&["src"], &[]),
        "raise" => (&["event"], &[]),
        "if" => (
            &["cond"],
            &[
                "raise", "if", "foreach", "log", "assign", "send", "cancel", "script", "elseif",
                "else",
            ],
        ),
        "elseif" => (&["cond"], &[]),
        "else" => (&[], &[]),
        "foreach" => (&["array", "item", "index"], EXECUTABLE),
        "log" => (&["label", "expr"], &[]),
        "assign" => (&["location", "expr"], &["scxml"]),
        "send" => (
            &[
                "event",
                "eventexpr",
                "target",
                "targetexpr",
                "type",
                "typeexpr",
                "id",
                "idlocation",
                "delay",
                "delayexpr",
                "namelist",
            ],
            &["param", "content"],
        ),
        "cancel" => (&["sendid", "sendidexpr"], &[]),
        "invoke" => (
            &[
                "type",
                "typeexpr",
                "src",
                "srcexpr",
                "id",
                "idlocation",
                "namelist",
                "autoforward",
            ],
            &["param", "finalize", "content"],
        ),
        "finalize" => (&[], EXECUTABLE),
        _ => return None,
    })
}
