# tstable: a word inside an open quote (--filter "LastN<Tab>) is completed
# too. Cobra's functions above pass the word to tstable through eval, where
# an open quote is a syntax error, and match the answers against the word
# as a shell word; these wrappers pass it on as it is typed, and complete
# what follows the quote in place.
eval "$(declare -f __tstable_get_completion_results | sed '1s/__tstable_get_completion_results/__tstable_get_completion_results_unquoted/')"
eval "$(declare -f __tstable_handle_completion_types | sed '1s/__tstable_handle_completion_types/__tstable_handle_completion_types_unquoted/')"

__tstable_open_quote() {
    [[ ${cur:0:1} == [\"\'] ]]
}

__tstable_get_completion_results() {
    if ! __tstable_open_quote; then
        __tstable_get_completion_results_unquoted
        return
    fi
    local typed=${words[${#words[@]}-1]}
    words[${#words[@]}-1]=$(printf %q "$typed")
    __tstable_get_completion_results_unquoted
    words[${#words[@]}-1]=$typed
}

__tstable_handle_completion_types() {
    if ! __tstable_open_quote; then
        __tstable_handle_completion_types_unquoted
        return
    fi
    local tab=$'\t' quote=${cur:0:1} compline comp longest=0
    COMPREPLY=()
    while IFS='' read -r compline; do
        comp=${compline%%$tab*}
        [[ -n $comp && $comp == "$cur"* ]] || continue
        COMPREPLY+=("${compline#"$quote"}")
        comp=${comp#"$quote"}
        ((${#comp} > longest)) && longest=${#comp}
    done < <(printf "%s\n" "${completions[@]}")
    if ((${#COMPREPLY[@]} == 1)); then
        comp=${COMPREPLY[0]%%$tab*}
        if [[ $quote == '"' ]]; then
            comp=${comp//\\/\\\\}
            comp=${comp//\"/\\\"}
            comp=${comp//\$/\\\$}
            comp=${comp//\`/\\\`}
        fi
        # Bash closes the quote after a single match, which would end the
        # filter there: the match twice, once with a space, inserts it and
        # leaves the quote open.
        COMPREPLY=("$comp" "$comp ")
    else
        __tstable_format_comp_descriptions $longest
    fi
}
