//! [`State`]: the tokenizer states a tree builder can start the tokenizer in or switch it
//! to. A leaf module: the machine and the tree-builder simulation (`feedback`) both use it,
//! and it uses neither.

/// The states a tokenizer can be started in or switched to by a tree builder: the ones the
/// tree construction stage (and the html5lib tests) name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// 13.2.5.1 Data state.
    Data,
    /// 13.2.5.5 PLAINTEXT state.
    Plaintext,
    /// 13.2.5.2 RCDATA state.
    Rcdata,
    /// 13.2.5.3 RAWTEXT state.
    Rawtext,
    /// 13.2.5.4 Script data state.
    ScriptData,
    /// 13.2.5.69 CDATA section state.
    CdataSection,
}

impl State {
    /// The state named as the html5lib tests name it (`"Data state"`, `"RCDATA state"`, …).
    pub fn from_html5lib_name(name: &str) -> Option<State> {
        Some(match name {
            "Data state" => State::Data,
            "PLAINTEXT state" => State::Plaintext,
            "RCDATA state" => State::Rcdata,
            "RAWTEXT state" => State::Rawtext,
            "Script data state" => State::ScriptData,
            "CDATA section state" => State::CdataSection,
            _ => return None,
        })
    }

    /// The html5lib test suite's name for the state.
    pub fn html5lib_name(self) -> &'static str {
        match self {
            State::Data => "Data state",
            State::Plaintext => "PLAINTEXT state",
            State::Rcdata => "RCDATA state",
            State::Rawtext => "RAWTEXT state",
            State::ScriptData => "Script data state",
            State::CdataSection => "CDATA section state",
        }
    }
}
