// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace pepsi {

// A value or the reason there is none. Pure parsers return this instead of
// throwing, so every caller decides what a failure means where it happens.
// Marks a value as the error where T and E are the same type.
template<typename E>
struct Failure
{
    E error;
};
template<typename E>
Failure<E> failure(E error)
{
    return {std::move(error)};
}

template<typename T, typename E>
class Result
{
public:
    Result(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    { }
    Result(E error) requires(!std::is_same_v<T, E>)
        : m_v(std::in_place_index<1>, std::move(error))
    { }
    Result(Failure<E> failed)
        : m_v(std::in_place_index<1>, std::move(failed.error))
    { }
    // Something that only becomes an E (a QStringBuilder expression, say).
    template<typename U>
    requires(
        !std::is_same_v<
            std::decay_t<U>,
            T> && !std::is_same_v<std::decay_t<U>, E> && !std::is_convertible_v<U, T> && std::is_convertible_v<U, E>)
        // NOLINTNEXTLINE(bugprone-forwarding-reference-overload): the constraint excludes T and E
        Result(U &&error)
        : m_v(std::in_place_index<1>, E(std::forward<U>(error)))
    { }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_v); }
    T &value() & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &value(); }

    const E &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, E> m_v;
};

} // namespace pepsi
