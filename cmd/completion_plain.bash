
# tstable: completion in a bash without the bash-completion package.
# Cobra's functions above call its _get_comp_words_by_ref and _filedir;
# where bash-completion is not loaded, these take their place, so Tab
# completes rather than saying "command not found".
__tstable_init_completion() {
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    __tstable_comp_words
}

# The words up to the cursor, as _get_comp_words_by_ref -n =: gives them:
# bash's COMP_WORDS, with a = or : joined to the words it touches
# (--filter=x is one word), and the word at the cursor cut there.
__tstable_comp_words() {
    local line=${COMP_LINE:0:COMP_POINT} i w part blanks join cut=''
    words=() cword=-1 cur='' prev=''
    for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        blanks=${line%%[![:blank:]]*}
        line=${line#"$blanks"}
        part=$w
        if [[ $line != "$w"* ]]; then
            part=$line cut=${w#"$line"} # the cursor is inside this word
        fi
        line=${line#"$part"}
        join=0
        if ((cword >= 0)) && [[ -z $blanks ]]; then
            [[ $part =~ ^[=:]+$ || ${words[cword]} == *[=:] ]] && join=1
        fi
        if ((join)); then
            words[cword]+=$w
        else
            words+=("$w")
            cword=$((${#words[@]} - 1))
        fi
    done
    cur=${words[cword]%"$cut"}
    ((cword > 0)) && prev=${words[cword - 1]}
    return 0
}

# _filedir, or without it the files (with one of the extensions
# "json|jsonl|", when given) and folders that begin with $cur; -d: folders.
__tstable_filedir() {
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local IFS=$'\n' ext=${1%|} extglob
    COMPREPLY=($(compgen -d -- "$cur"))
    if [[ $1 != -d ]]; then
        extglob=$(shopt -p extglob)
        shopt -s extglob
        if [[ -n $ext ]]; then
            COMPREPLY+=($(compgen -f -X "!*.@($ext)" -- "$cur"))
        else
            COMPREPLY+=($(compgen -f -- "$cur"))
        fi
        eval "$extglob"
    fi
    compopt -o filenames 2>/dev/null
}
eval "$(declare -f __tstable_process_completion_results | sed 's/\([" ]\)_filedir/\1__tstable_filedir/g')"
eval "$(declare -f __tstable_handle_activeHelp | sed 's/\([" ]\)_filedir/\1__tstable_filedir/g')"
