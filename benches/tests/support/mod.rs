//! Shared by the tests that drive html5ever's tokenizer (`differential.rs`,
//! `tree_builder.rs`; each declares `mod support;` beside `mod checks;`): html5ever's tokens
//! in the html5lib-like form of `checks::H5`.

use html5ever::tokenizer::{TagKind, Token as EToken};

use crate::checks::{H5, push_h5};

/// Appends html5ever's `token` to `tokens` (coalescing text); parse errors and EOF add
/// nothing.
pub fn push_html5ever(tokens: &mut Vec<H5>, token: &EToken) {
    let h5 = match token {
        EToken::TagToken(tag) if tag.kind == TagKind::EndTag => H5::EndTag {
            name: tag.name.to_string(),
        },
        EToken::TagToken(tag) => H5::StartTag {
            name: tag.name.to_string(),
            attrs: tag
                .attrs
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect(),
            self_closing: tag.self_closing,
        },
        EToken::CharacterTokens(s) => H5::Character(s.to_string()),
        EToken::NullCharacterToken => H5::Character("\0".to_string()),
        EToken::CommentToken(s) => H5::Comment(s.to_string()),
        EToken::DoctypeToken(d) => H5::Doctype {
            name: d.name.as_ref().map(|s| s.to_string()),
            public_id: d.public_id.as_ref().map(|s| s.to_string()),
            system_id: d.system_id.as_ref().map(|s| s.to_string()),
            force_quirks: d.force_quirks,
        },
        EToken::ParseError(_) | EToken::EOFToken => return,
    };
    push_h5(tokens, h5);
}
