import FilterCore

/// A command typed while a pipeline runs: one per line on stdin, or a key or a `:` line
/// in a terminal. The vocabulary, the keys and the help are FilterCore's, shared with the
/// preview window (`ControlCommand`, `Keymap`); `filtercam launch --help` lists them.
public typealias LiveCommand = ControlCommand
