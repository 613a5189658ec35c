// The shells `svc completion` writes scripts for and how to install each script: the command's
// argument choices and its help (commands/completion/), and the top of every generated script
// (header.ts). Data only: the command's registration reads it without loading the generators.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const INSTALL: Readonly<Record<Shell, readonly string[]>> = {
  bash: [
    '# this shell only:',
    'source <(svc completion bash)',
    '# every new shell (no bash-completion package needed):',
    'svc completion bash > ~/.svc-completion.bash',
    "echo 'source ~/.svc-completion.bash' >> ~/.bashrc",
    '# or, with the bash-completion package, loaded on first use:',
    'svc completion bash > ~/.local/share/bash-completion/completions/svc',
  ],
  zsh: [
    '# a folder of your fpath, before compinit runs in ~/.zshrc:',
    'mkdir -p ~/.zfunc && svc completion zsh > ~/.zfunc/_svc',
    '# then in ~/.zshrc: fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit',
    '# or, after compinit in ~/.zshrc:',
    'source <(svc completion zsh)',
  ],
  fish: ['svc completion fish > ~/.config/fish/completions/svc.fish'],
};
