// baseline.cpp - the seeds' algorithm in the usual contest style, as a
// reference for the benchmark: reverse graph as vector<vector<int>>, a FIFO
// queue, cin with sync off.  Prints loopy's text format (vertex, W/L/D,
// remoteness, least-numbered proving move) so its output can be compared
// byte for byte with 'loopy solve'.
#include <bits/stdc++.h>
using namespace std;

int main()
{
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    long long m;
    cin >> n >> m;
    vector<vector<int>> rev(n + 1);
    vector<int> deg(n + 1, 0);
    for (long long i = 0; i < m; i++) {
        int u, v;
        cin >> u >> v;
        rev[v].push_back(u);
        deg[u]++;
    }
    // res: 0 draw, 1 win, 2 lose
    vector<char> res(n + 1, 0);
    vector<int> rem(n + 1, -1), cnt(deg);
    queue<int> q;
    for (int v = 1; v <= n; v++)
        if (deg[v] == 0) {
            res[v] = 2;
            rem[v] = 0;
            q.push(v);
        }
    while (!q.empty()) {
        int v = q.front();
        q.pop();
        for (int u : rev[v]) {
            if (res[u])
                continue;
            if (res[v] == 2) {
                res[u] = 1;
                rem[u] = rem[v] + 1;
                q.push(u);
            } else if (--cnt[u] == 0) {
                res[u] = 2;
                rem[u] = rem[v] + 1;
                q.push(u);
            }
        }
    }
    vector<int> best(n + 1, 0);
    for (int w = 1; w <= n; w++)
        for (int u : rev[w]) {
            if (best[u])
                continue;
            bool ok = res[u] == 0 ? res[w] == 0
                                  : rem[u] > 0 && rem[w] == rem[u] - 1 &&
                                        res[w] == 3 - res[u];
            if (ok)
                best[u] = w;
        }
    const char letter[3] = {'D', 'W', 'L'};
    for (int v = 1; v <= n; v++) {
        cout << v << ' ' << letter[(int)res[v]] << ' ';
        if (rem[v] < 0)
            cout << '-';
        else
            cout << rem[v];
        cout << ' ';
        if (best[v])
            cout << best[v];
        else
            cout << '-';
        cout << '\n';
    }
    return 0;
}
