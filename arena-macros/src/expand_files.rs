//! For `scripts/build-cost.sh`: writes a copy of a source file with every
//! `#[derive(Arena)]` replaced by the code it generates, formatted.
//! `ARENA_EXPAND_IN=src.rs ARENA_EXPAND_OUT=out.rs cargo test -p arena-macros expand_files`

use syn::punctuated::Punctuated;

fn is_arena_derive(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("derive")
        && attr
            .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .is_ok_and(|paths| paths.iter().any(|p| p.is_ident("Arena")))
}

fn strip(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("arena"));
    for a in attrs.iter_mut() {
        if is_arena_derive(a) {
            let rest: Vec<syn::Path> = a
                .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .unwrap()
                .into_iter()
                .filter(|p| !p.is_ident("Arena"))
                .collect();
            *a = syn::parse_quote!(#[derive(#(#rest),*)]);
        }
    }
}

#[test]
fn expand_files() {
    let (Some(input), Some(output)) = (
        std::env::var_os("ARENA_EXPAND_IN"),
        std::env::var_os("ARENA_EXPAND_OUT"),
    ) else {
        return;
    };
    let mut file = syn::parse_file(&std::fs::read_to_string(input).unwrap()).unwrap();
    let mut generated = Vec::new();
    for item in &mut file.items {
        if let syn::Item::Struct(s) = item
            && s.attrs.iter().any(is_arena_derive)
        {
            let input: syn::DeriveInput = syn::parse_quote!(#s);
            let tokens = crate::expand::derive(&input);
            generated.extend(syn::parse2::<syn::File>(tokens).unwrap().items);
            strip(&mut s.attrs);
            for f in &mut s.fields {
                f.attrs.retain(|a| {
                    !["arena", "size", "lever"]
                        .iter()
                        .any(|k| a.path().is_ident(k))
                });
            }
        }
    }
    file.items.extend(generated);
    std::fs::write(output, prettyplease::unparse(&file)).unwrap();
}
